/**
 * Bundles server.mts (the production server) to .next/misi-server.mjs after `next build`: the project's own sources
 * (lib/, the generated Prisma client) are bundled, packages stay external (Next, Prisma's runtime, pg load from
 * node_modules as in Next's server), and "server-only" becomes empty (its guard is for client bundles). `npm start`,
 * the Playwright configs and bench:load run this file, so they run the same code.
 */
import fs from "node:fs/promises";
import path from "node:path";
import esbuild from "esbuild";
import { precompressStatic } from "./precompress-static.mts";
import { LAUNCHER } from "./server-launcher.mts";

const root = path.resolve(import.meta.dirname, "..");
const outfile = path.join(root, ".next", "misi-server-main.mjs");
// The entry `npm start` runs (scripts/server-launcher.mts says what it does first).
const launcher = path.join(root, ".next", "misi-server.mjs");
// Written beside and renamed into place: a server starting meanwhile reads the old file or the new one, never half.
const temp = `${outfile}.${process.pid}.tmp`;
await esbuild.build({
  entryPoints: [path.join(root, "server.mts")],
  outfile: temp,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  // Bundled CommonJS-style code (none expected) would need require in an ES module.
  banner: {
    js: 'import { createRequire as __misiCreateRequire } from "node:module"; const require = __misiCreateRequire(import.meta.url);',
  },
  plugins: [
    {
      name: "server-only-empty",
      setup(build) {
        build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
        build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
      },
    },
  ],
  logLevel: "warning",
});
await fs.rename(temp, outfile);
await fs.writeFile(`${launcher}.${process.pid}.tmp`, LAUNCHER);
await fs.rename(`${launcher}.${process.pid}.tmp`, launcher);
console.log(`custom server bundled: ${path.relative(root, outfile)} (started by ${path.relative(root, launcher)})`);
console.log(await precompressStatic(root));
