/** Ports of the first-contact run (dev server and its embedded database), away from the defaults a developer uses
 *  (3000 / 54329) and from the e2e server (3100), so the run never meets a developer's own `npm run dev` or `npm test`. */
export const FIRST_CONTACT_PORT = Number(process.env.FIRST_CONTACT_PORT ?? 3180);
export const FIRST_CONTACT_DB_PORT = Number(process.env.FIRST_CONTACT_DB_PORT ?? 54339);

const RESERVED = new Set([3000, 3100, 54329]);
for (const port of [FIRST_CONTACT_PORT, FIRST_CONTACT_DB_PORT]) {
  if (RESERVED.has(port))
    throw new Error(`first-contact: port ${port} is a default another run uses (3000, 3100, 54329); pick another`);
}
