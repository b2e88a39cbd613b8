/**
 * `npm run hbonds` runs scripts/hbonds.mts as a prebuilt bundle (scripts/run-bundled.mjs): the bundled CLI
 * must print what the library computes, and fail with the CLI's own message on bad input.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findComplexHBonds, formatHBondsT9 } from "@/lib/molecule/hbonds";
import { formatParseError, parseStructure } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DEMO = path.join(ROOT, "prisma/demo/structures/3aid.pdb");
const runCli = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "scripts/run-bundled.mjs"), "scripts/hbonds.mts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });

describe("hbonds CLI through the prebuilt bundle", () => {
  it("prints the T9 answer findComplexHBonds gives for the same file", () => {
    const parsed = parseStructure(fs.readFileSync(DEMO, "utf8"), "3aid.pdb");
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const prepared = prepareComplex(parsed.structure, {});
    if (!prepared.ok) throw new Error(prepared.reason);
    const expected = formatHBondsT9(findComplexHBonds(prepared.complex));
    expect(expected.length).toBeGreaterThan(0);
    const r = runCli(DEMO);
    expect(r.stderr).not.toContain("run-bundled:");
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(expected);
  });

  it("a missing file exits 1 with the CLI's message", () => {
    const r = runCli(path.join(ROOT, "no-such-file.pdb"));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("hbonds: cannot read");
  });
});
