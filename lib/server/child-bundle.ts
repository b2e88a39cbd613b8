import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface ChildBundleOptions {
  /** Entry source, relative to the project folder. */
  entry: string;
  /** Folder the bundle is written to. */
  dir: string;
  /** File name prefix; the content hash and `.cjs` follow. */
  prefix: string;
  external: string[];
  banner?: string;
  define?: Record<string, string>;
}

/**
 * A child process's code as one plain CommonJS file built by esbuild from the sources on first use, so the child starts
 * as `node FILE` (no tsx loader) and can never be older than the code beside it; Turbopack emits no entry files for
 * children. Content-addressed: concurrent processes write the same bytes, and the rename makes each write whole.
 */
export function buildChildBundle(options: ChildBundleOptions): Promise<string> {
  // One build at a time: esbuild's stop() ends the service every build in this process shares, so two overlapping
  // builds (the heavy-work pool's and the responses export's, started by one researcher's page and download) left the
  // second one waiting for ever.
  const run = building.then(() => build(options));
  building = run.catch(() => undefined);
  return run;
}

let building: Promise<unknown> = Promise.resolve();

async function build(options: ChildBundleOptions): Promise<string> {
  const esbuild = await import("esbuild");
  try {
    const result = await esbuild.build({
      entryPoints: [path.join(process.cwd(), options.entry)],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      // "server-only" resolves to its empty module under react-server.
      conditions: ["react-server"],
      external: options.external,
      ...(options.banner ? { banner: { js: options.banner } } : {}),
      ...(options.define ? { define: options.define } : {}),
      tsconfig: path.join(process.cwd(), "tsconfig.json"),
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error("esbuild produced no output");
    await fs.mkdir(options.dir, { recursive: true });
    const file = path.join(
      options.dir,
      `${options.prefix}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.cjs`,
    );
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, code);
    await fs.rename(temp, file);
    return file;
  } finally {
    await esbuild.stop();
  }
}
