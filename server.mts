/**
 * The production server (`npm start`): node:http in front, the participant routes and health checks answered by
 * lib/server/serving/front.ts with the same handlers Next's route files export, every other request handed to Next.
 * `npm run build` bundles this file to .next/misi-server-main.mjs behind the launcher .next/misi-server.mjs, which sets
 * NODE_ENV=production first (scripts/build-server.mts); tests and benches start the launcher.
 *
 *   node .next/misi-server.mjs [--port 3000] [--hostname 127.0.0.1]      (or PORT / HOSTNAME)
 */
import path from "node:path";
import { parseArgs } from "node:util";
import next from "next";
import { env } from "@/lib/server/env";
import { getAuthSecret } from "@/lib/server/secrets";
import { LoadShedder } from "@/lib/server/load-shed";
import { createFrontHandler } from "@/lib/server/serving/front";
import { createFrontServer } from "@/lib/server/serving/http-server";
import { StaticAssets } from "@/lib/server/serving/static-assets";
import { ParticipantShell } from "@/lib/server/serving/participant-shell";

// Production needs NEXTAUTH_SECRET: fail at start, not at the first page that signs something.
try {
  getAuthSecret();
} catch (err) {
  console.error(`misi-baseline: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

const { values: args } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
});
const port = Number(args.port ?? process.env.PORT ?? 3000);
// Unset: every address, IPv4 and IPv6, as `next start` listens.
const hostname = args.hostname ?? process.env.HOSTNAME;
// The bundle lives in .next/; the project folder is its parent (Next reads .next/ and public/ from there).
const dir = path.resolve(import.meta.dirname, "..");

const shedder = new LoadShedder({
  maxInFlight: env.SHED_MAX_IN_FLIGHT,
  maxLagMs: env.SHED_MAX_LAG_MS,
  warmupMs: env.SHED_WARMUP_MS,
});
const app = next({ dev: false, dir, hostname: hostname ?? "localhost", port });
const nextHandler = app.getRequestHandler();
// Next refuses requests until prepared ("prepare() must be called before performing this operation", a 500): what
// it serves waits for that (about a second after start); the participant routes and health checks do not.
const prepared = app.prepare();
const shell = ParticipantShell.load(dir);
if (!shell) console.warn(`misi-baseline: no prerendered participant page in .next; Next renders each one (slower)`);
const front = createFrontHandler({
  next: async (req, res) => {
    await prepared;
    return nextHandler(req, res);
  },
  shedder,
  assets: new StaticAssets(dir),
  shell,
});

const server = createFrontServer(front);

// Listen first: health checks and shed 503s are answered while Next loads.
server.listen(port, hostname, () =>
  console.log(
    `▲ misi-baseline on http://${hostname ?? "localhost"}:${port} (custom server: participant routes direct, the rest through Next)`,
  ),
);
await prepared;

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
