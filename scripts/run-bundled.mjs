// Runs a TypeScript CLI as one prebuilt JavaScript bundle with plain node:
//   node scripts/run-bundled.mjs scripts/hbonds.mts [ARGS...]
// Transpiling the CLI and its imports with tsx costs more than the work itself for a short command
// (`npm run hbonds` on one complex). The bundle is built with esbuild into node_modules/.cache/misi-cli/
// on first use and rebuilt whenever one of its source files is newer than it, so the command always runs
// the current code.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = path.join(ROOT, "node_modules/.cache/misi-cli");

function fail(message) {
  process.stderr.write(`run-bundled: ${message}\n`);
  process.exit(1);
}

/** Whether the bundle exists and no input recorded in its metafile (or the build config) is newer. */
function isFresh(bundle, meta) {
  let built;
  try {
    built = fs.statSync(bundle).mtimeMs;
  } catch {
    return false;
  }
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(meta, "utf8")).inputs;
  } catch {
    return false;
  }
  for (const input of [...inputs, "package.json", "tsconfig.json", "scripts/run-bundled.mjs"]) {
    try {
      if (fs.statSync(path.join(ROOT, input)).mtimeMs > built) return false;
    } catch {
      return false; // an input was deleted or renamed
    }
  }
  return true;
}

async function build(entry, bundle, meta) {
  const esbuild = await import("esbuild");
  // Built under a private name and renamed, so a run started meanwhile never loads half a file.
  const tmp = `${bundle}.${process.pid}.tmp`;
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: tmp,
    packages: "external",
    metafile: true,
    logLevel: "error",
    tsconfig: path.join(ROOT, "tsconfig.json"),
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("node_modules/"));
  fs.writeFileSync(meta, JSON.stringify({ inputs }));
  fs.renameSync(tmp, bundle);
}

const [entry, ...args] = process.argv.slice(2);
if (!entry) fail("usage: node scripts/run-bundled.mjs ENTRY.mts [ARGS...]");
if (!fs.existsSync(path.join(ROOT, entry))) fail(`no such entry point: ${entry}`);
const name = entry.replace(/[^A-Za-z0-9]+/g, "_");
const bundle = path.join(CACHE, `${name}.mjs`);
const meta = path.join(CACHE, `${name}.inputs.json`);
if (!isFresh(bundle, meta)) {
  fs.mkdirSync(CACHE, { recursive: true });
  try {
    await build(entry, bundle, meta);
  } catch (e) {
    // Without esbuild (a partial install) the CLI still runs, through tsx.
    if (e && e.code === "ERR_MODULE_NOT_FOUND") {
      const r = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, entry), ...args],
        { stdio: "inherit" },
      );
      process.exit(r.status ?? 1);
    }
    fail(`cannot build ${entry}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
process.argv = [process.argv[0], path.join(ROOT, entry), ...args];
await import(pathToFileURL(bundle).href);
