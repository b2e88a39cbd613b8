import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LAUNCHER } from "../../../scripts/server-launcher.mts";

const root = path.resolve(import.meta.dirname, "../../..");
// A space in the path: the launcher finds its folder from its own URL, where a space is %20.
const project = fs.mkdtempSync(path.join(os.tmpdir(), "misi launcher-"));
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

describe("the production entry (.next/misi-server.mjs)", () => {
  it("is a production process with the project's .env loaded before the server's modules, the shell's variables winning", () => {
    fs.mkdirSync(path.join(project, ".next"));
    fs.symlinkSync(path.join(root, "node_modules"), path.join(project, "node_modules"));
    fs.writeFileSync(path.join(project, ".next/misi-server.mjs"), LAUNCHER);
    // Stands in for the bundle: what lib/server/env.ts would see when it parses the environment.
    fs.writeFileSync(
      path.join(project, ".next/misi-server-main.mjs"),
      `console.log(JSON.stringify({ nodeEnv: process.env.NODE_ENV, fromFile: process.env.MISI_PROBE_FILE ?? null, fromShell: process.env.MISI_PROBE_SHELL ?? null }));\n`,
    );
    fs.writeFileSync(path.join(project, ".env"), "MISI_PROBE_FILE=from-dotenv\nMISI_PROBE_SHELL=from-dotenv\n");
    const run = spawnSync(process.execPath, [path.join(project, ".next/misi-server.mjs")], {
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH, NODE_ENV: "development", MISI_PROBE_SHELL: "from-shell" },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1)!)).toEqual({
      nodeEnv: "production",
      fromFile: "from-dotenv",
      fromShell: "from-shell",
    });
  });
});
