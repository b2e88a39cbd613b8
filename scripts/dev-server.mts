/**
 * The development server (`npm run dev`, after its predev step has started the database, migrated and seeded):
 * server.mts with `next({ dev: true })` behind the same front as production, so participant routes in development go
 * through the front's route table, path canonicalisation, per-address bound, body deadline, shedder and headers.
 * Run under `tsx watch`, which restarts the process when a file it imported changes (the front and the handlers it
 * imports are loaded by Node, out of reach of Next's hot reload); what only Next compiles (pages, components) hot-reloads.
 */
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import nextEnv from "@next/env";

// Before anything reads it (lib/server/env.ts, Next, React): a development process, as `next dev` makes it.
(process.env as Record<string, string>).NODE_ENV = "development";
register("./server-only-hook.mjs", import.meta.url);
const dir = path.resolve(import.meta.dirname, "..");
// The .env files, read as `next dev` reads them, before lib/server/env.ts parses the environment: the front's modules
// and Next's see the same DATABASE_URL.
nextEnv.loadEnvConfig(dir, true);
// Turbopack's persistent dev cache is not reused (next.config.ts says why): cleared on every start, restarts by
// `tsx watch` included.
fs.rmSync(path.join(dir, ".next/dev/cache/turbopack"), { recursive: true, force: true });
process.argv.push("--dev");
await import("../server.mts");
