/**
 * The server (`npm start`, and `npm run dev` with --dev): node:http in front, the participant routes and health checks
 * answered by lib/server/serving/front.ts with the same handlers Next's route files export, every other request handed
 * to Next. `npm run build` bundles this file to .next/misi-server-main.mjs behind the launcher .next/misi-server.mjs,
 * which sets NODE_ENV=production and loads the .env files first (scripts/server-launcher.mts); tests and benches start
 * the launcher. `npm run dev`
 * runs it from source with `--dev` (scripts/dev-server.mts: NODE_ENV=development, `next({ dev: true })` behind the
 * same front, Next's hot-reload websocket served by Next).
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

const { values: args } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" }, dev: { type: "boolean" } },
});
const dev = args.dev ?? false;
// Development runs this file from source (`npm run dev`); the build runs its bundle from .next/, where `--dev` would
// start next dev in the wrong folder.
if (dev && path.basename(import.meta.filename) !== "server.mts") {
  console.error("misi-baseline: --dev is for `npm run dev` (server.mts from source), not the production build");
  process.exit(1);
}
// Production needs NEXTAUTH_SECRET: fail at start, not at the first page that signs something (development makes one).
try {
  getAuthSecret();
} catch (err) {
  console.error(`misi-baseline: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

const port = Number(args.port ?? process.env.PORT ?? 3000);
// Unset: every address, IPv4 and IPv6, as `next start` listens. Development ignores HOSTNAME, as `next dev` does: a
// container exports its own name there, and localhost would no longer answer.
const hostname = args.hostname ?? (dev ? undefined : process.env.HOSTNAME);
// The bundle lives in .next/; the project folder is its parent (Next reads .next/ and public/ from there). In
// development this file runs from source, in the project folder.
const dir = dev ? import.meta.dirname : path.resolve(import.meta.dirname, "..");
const startedAt = Date.now();

const shedder = new LoadShedder({
  maxInFlight: env.SHED_MAX_IN_FLIGHT,
  maxLagMs: env.SHED_MAX_LAG_MS,
  warmupMs: env.SHED_WARMUP_MS,
});
// Development renders the session page per request (next dev); production sends the build's prerendered one.
const shell = dev ? null : ParticipantShell.load(dir);
if (!dev && !shell)
  console.warn(`misi-baseline: no prerendered participant page in .next; Next renders each one (slower)`);
const front = createFrontHandler({
  next: async (req, res) => {
    await prepared;
    return nextHandler(req, res);
  },
  shedder,
  // Development: Next compiles the build assets on request (.next/static may hold an old build's).
  ...(dev ? {} : { assets: new StaticAssets(dir) }),
  shell,
});

const server = createFrontServer(front);
// `httpServer`: in development Next answers its hot-reload websocket on this server. It adds its own "upgrade" listener
// when it handles its first request (a page, which is what opens that websocket); Next's getUpgradeHandler() is a
// no-op for this, so the front does not forward upgrades itself.
const app = next({ dev, dir, hostname: hostname ?? "localhost", port, httpServer: server });
const nextHandler = app.getRequestHandler();
// Next refuses requests until prepared ("prepare() must be called before performing this operation", a 500): what
// it serves waits for that (about a second after start); the participant routes and health checks do not.
const prepared = app.prepare();

// Listen first: health checks and shed 503s are answered while Next loads.
server.listen(port, hostname, () =>
  console.log(
    `▲ misi-baseline on http://${hostname ?? "localhost"}:${port} (${dev ? "development, " : ""}custom server: participant routes direct, the rest through ${dev ? "next dev" : "Next"})`,
  ),
);
await prepared;
console.log(`✓ Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    // Development: Next's dev server stops its bundler's workers and watchers too.
    void Promise.all([new Promise((r) => server.close(r)), dev ? app.close() : null]).then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
