/**
 * The text of .next/misi-server.mjs, the entry `npm start` runs (scripts/build-server.mts writes it beside the bundle).
 * It makes the process a production one before anything loads: inside one ES module the packages' imports (Next,
 * React) are evaluated before any statement, so the bundle itself cannot set NODE_ENV first; a dynamic import after
 * the assignment can. Staff cookies, participant cookies (Secure behind https) and the secret check all read it.
 * Then the project's .env files, read as `next start` reads them (a variable already set wins), before
 * lib/server/env.ts parses the environment: the front's modules and Next's see the same DATABASE_URL.
 */
export const LAUNCHER = `process.env.NODE_ENV = "production";
const { default: nextEnv } = await import("@next/env");
const { fileURLToPath } = await import("node:url");
nextEnv.loadEnvConfig(fileURLToPath(new URL("..", import.meta.url)), false);
await import("./misi-server-main.mjs");
`;
