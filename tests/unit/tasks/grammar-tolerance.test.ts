/**
 * Grammar tolerance: units after numbers, the ways people write "no H-bonds", and one-letter
 * residue codes (a format error that names the three-letter code instead of a silent 0).
 */
import { describe, expect, it } from "vitest";
import { getTask } from "@/lib/tasks/registry";

const t1 = getTask("translation");
const t2 = getTask("rotation");
const t7 = getTask("docking");
const t4 = getTask("residue_ligand");
const t9 = getTask("pocket_ligand");

describe("units after the number", () => {
  it.each([
    ["move x 4 Å", "move x 4"],
    ["move x 4Å", "move x 4"],
    ["move x 4 A", "move x 4"],
    ["move x -3a", "move x -3"],
    ["move y 2 angstroms", "move y 2"],
    ["move y 2 Angstrom", "move y 2"],
    ["move y 2 ångström", "move y 2"],
    ["move x 4 \u212B", "move x 4"], // ANGSTROM SIGN
    ["move x 4 A\u030A", "move x 4"], // A + combining ring above
  ])("T1 %j → %j", (text, canonical) => {
    const r = t1.parseAnswer(text);
    expect(r.ok && r.canonical).toBe(canonical);
  });
  it.each([
    ["roll y 15°", "roll y 15"],
    ["roll y 15 °", "roll y 15"],
    ["roll y -30 deg", "roll y -30"],
    ["roll z 45deg", "roll z 45"],
    ["roll x 90 degrees", "roll x 90"],
    ["roll x 90 degree", "roll x 90"],
  ])("T2 %j → %j", (text, canonical) => {
    const r = t2.parseAnswer(text);
    expect(r.ok && r.canonical).toBe(canonical);
  });
  it("T7 two commands with units", () => {
    const r = t7.parseAnswer("roll y 45°, move x -12 Å");
    expect(r.ok && r.canonical).toBe("roll y 45, move x -12");
  });
  it("the wrong unit is a located error", () => {
    const r = t7.parseAnswer("roll y 45 Å, move x -12");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^command 1 .*'Å' is not a unit of angle/);
  });
});

describe("no hydrogen bonds", () => {
  it.each([
    "No",
    "no",
    "None",
    "none.",
    "No hydrogen bonds",
    "no hydrogen bond",
    "No H-bonds",
    "no H bonds",
    "No hbonds",
    "NO H-BONDS.",
  ])("T4 %j is No", (text) => {
    const r = t4.parseAnswer(text);
    expect(r.ok && r.canonical).toBe("No");
  });
  it.each(["None", "No hydrogen bonds", "no H-bonds"])("T9 %j is No", (text) => {
    const r = t9.parseAnswer(text);
    expect(r.ok && r.canonical).toBe("No");
  });
  it.each(["No bonds at all", "Nope", "No, none"])("T4 %j is still an error", (text) => {
    expect(t4.parseAnswer(text).ok).toBe(false);
  });
  it("T9 keeps reading a list that starts with a residue named NO", () => {
    const r = t9.parseAnswer("NO 5 N1 A, O1");
    expect(r.ok).toBe(true);
  });
});

describe("one-letter residue codes", () => {
  it.each([
    ["Yes: R NH2, O1B", "'R' is a one-letter amino-acid code: write the 3-letter code 'ARG'"],
    [
      "Yes: ARG NE, O2G; d OD1, N2",
      "bond 2 ('d OD1, N2'): 'd' is a one-letter amino-acid code: write the 3-letter code 'ASP'",
    ],
    ["Yes: T 35 OG1, O1", "'T' is a one-letter amino-acid code: write the 3-letter code 'THR'"],
  ])("T4 %j", (text, message) => {
    const r = t4.parseAnswer(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
  it("T9", () => {
    const r = t9.parseAnswer("Y 228 OH A, O5");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("'Y' is a one-letter amino-acid code: write the 3-letter code 'TYR'");
  });
  it("three-letter codes still parse", () => {
    expect(t4.parseAnswer("Yes: arg nh2, o1b").ok).toBe(true);
  });
});
