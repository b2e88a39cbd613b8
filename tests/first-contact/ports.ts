/** Ports of the first-contact run (dev server and its embedded database), away from the defaults a developer uses. */
export const FIRST_CONTACT_PORT = Number(process.env.FIRST_CONTACT_PORT ?? 3180);
export const FIRST_CONTACT_DB_PORT = Number(process.env.FIRST_CONTACT_DB_PORT ?? 54339);
