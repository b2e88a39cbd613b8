/**
 * The fair score beside the paper's. Equivalent atom names count as one (ARG NH1/NH2,
 * ASP OD1/OD2, GLU OE1/OE2, …), matching is one-to-one, and partial is reported as F1 beside
 * precision. The paper score must not change.
 */
import { describe, expect, it } from "vitest";
import { fairScoreOf } from "@/lib/tasks/fair-score";
import { getTask } from "@/lib/tasks/registry";

const t4 = getTask("residue_ligand");
const t9 = getTask("pocket_ligand");

function both(taskId: "residue_ligand" | "pocket_ligand", answer: string, goldText: string, fields?: unknown) {
  const task = taskId === "residue_ligand" ? t4 : t9;
  const gold = task.parseAnswer(goldText);
  if (!gold.ok) throw new Error(gold.error);
  const paper = task.gradeText(answer, gold.value);
  if (!paper.ok) throw new Error(paper.error);
  const fair = fairScoreOf(taskId, paper.canonical, gold.value, fields);
  if (!fair.ok || !fair.score) throw new Error("no fair score");
  return { paper: paper.score, fair: fair.score };
}

describe("equivalent atom names", () => {
  // The participant names the symmetric partner the gold did not: the fair score counts it, the paper's does not.
  it.each([
    ["ARG", "NH2", "NH1", 1],
    ["ASP", "OD2", "OD1", 1],
    ["GLU", "OE1", "OE2", 1],
    ["TYR", "CE2", "CE1", 1],
    ["PHE", "CD1", "CD2", 1],
    ["ASN", "OD1", "ND2", 0], // amide O and N are told apart
    ["HIS", "NE2", "ND1", 0],
    ["THR", "OG1", "O", 0],
  ] as const)("%s %s for the gold's %s: fair exact %s", (res, named, gold, exact) => {
    const r = both("pocket_ligand", `${res} 45 ${named} A, O1`, `${res} 45 ${gold} A, O1`);
    expect(r.paper.exact).toBe(0);
    expect(r.fair.exact).toBe(exact);
  });
});

describe("equivalence is a consistent relabelling of the residue", () => {
  it("OXT for O on a residue that is not C-terminal is wrong (the gold never names its OXT)", () => {
    expect(both("pocket_ligand", "GLY 48 OXT A, N4", "GLY 48 O A, N4").fair).toEqual({ exact: 0, partial: 0, f1: 0 });
  });
  it("O/OXT swap on a C-terminal residue (the gold names its OXT)", () => {
    expect(
      both("pocket_ligand", "LYS 99 OXT A, N4; LYS 99 O A, N5", "LYS 99 O A, N4; LYS 99 OXT A, N5").fair.exact,
    ).toBe(1);
  });
  // The item's pick lists (public fields) list every residue's atoms: LYS 99 has an OXT, so it is C-terminal.
  const pickers = (atoms: string[]) => ({
    pickers: {
      residues: [{ residueName: "LYS", residueNumber: 99, insertionCode: "", chainId: "A", atoms }],
      ligandAtoms: ["N4", "N5"],
    },
  });
  it("symmetric: OXT answered for a gold O on a C-terminal residue scores as O answered for a gold OXT (T9)", () => {
    const terminal = pickers(["N", "CA", "C", "O", "CB", "CG", "CD", "CE", "NZ", "OXT"]);
    const forward = both("pocket_ligand", "LYS 99 O A, N4", "LYS 99 OXT A, N4", terminal);
    const backward = both("pocket_ligand", "LYS 99 OXT A, N4", "LYS 99 O A, N4", terminal);
    expect(forward.fair).toEqual({ exact: 1, partial: 1, f1: 1 });
    expect(backward.fair).toEqual(forward.fair);
    expect(backward.paper).toEqual({ exact: 0, partial: 0 }); // the paper's score keeps exact names
    // The gold alone cannot tell that LYS 99 is C-terminal (imported items without pick lists): OXT stays wrong.
    expect(both("pocket_ligand", "LYS 99 OXT A, N4", "LYS 99 O A, N4").fair.exact).toBe(0);
  });
  it("symmetric O/OXT on T4 (the one residue's pick list has an OXT)", () => {
    expect(
      both("residue_ligand", "Yes: LYS OXT, N4", "Yes: LYS O, N4", pickers(["N", "CA", "C", "O", "OXT"])).fair.exact,
    ).toBe(1);
    expect(
      both("residue_ligand", "Yes: LYS O, N4", "Yes: LYS OXT, N4", pickers(["N", "CA", "C", "O", "OXT"])).fair.exact,
    ).toBe(1);
  });
  it("no O/OXT equivalence on a residue without an OXT, even with pick lists", () => {
    expect(
      both("pocket_ligand", "LYS 99 OXT A, N4", "LYS 99 O A, N4", pickers(["N", "CA", "C", "O", "NZ"])).fair,
    ).toEqual({ exact: 0, partial: 0, f1: 0 });
  });
  it("one N to two O is not two N to one O each", () => {
    const { paper, fair } = both("residue_ligand", "Yes: ARG NH1, O1; ARG NH2, O2", "Yes: ARG NH1, O1; ARG NH1, O2");
    expect(paper.exact).toBe(0);
    expect(fair.exact).toBe(0);
    expect(fair.partial).toBe(0.5);
  });
  it("a whole-residue swap of both bonds counts", () => {
    expect(both("residue_ligand", "Yes: ARG NH2, O1; ARG NH1, O2", "Yes: ARG NH1, O1; ARG NH2, O2").fair.exact).toBe(1);
  });
  it("a TYR ring flip swaps both pairs together", () => {
    expect(both("residue_ligand", "Yes: TYR CD2, O1; TYR CE2, O2", "Yes: TYR CD1, O1; TYR CE1, O2").fair.exact).toBe(1);
    expect(both("residue_ligand", "Yes: TYR CD2, O1; TYR CE1, O2", "Yes: TYR CD1, O1; TYR CE1, O2").fair.exact).toBe(0);
  });
});

describe("fair vs paper on T4", () => {
  it("ARG NH1 for a gold ARG NH2: paper exact 0 / partial 0, fair exact 1", () => {
    const { paper, fair } = both("residue_ligand", "Yes: ARG NH1, O1B", "Yes: ARG NH2, O1B");
    expect(paper).toEqual({ exact: 0, partial: 0 });
    expect(fair).toEqual({ exact: 1, partial: 1, f1: 1 });
  });
  it("one of two bonds right with NH1 for NH2: paper partial 0.5, fair exact 1", () => {
    const { paper, fair } = both("residue_ligand", "Yes: ARG NH1, O1B; ARG NE, O2G", "Yes: ARG NH2, O1B; ARG NE, O2G");
    expect(paper).toEqual({ exact: 0, partial: 0.5 });
    expect(fair).toEqual({ exact: 1, partial: 1, f1: 1 });
  });
  it("matching is one-to-one: NH1 and NH2 both to O1 need both gold bonds", () => {
    const { fair } = both("residue_ligand", "Yes: ARG NH1, O1; ARG NH2, O1", "Yes: ARG NH2, O1");
    expect(fair.exact).toBe(0);
    expect(fair.partial).toBe(0.5); // every true bond plus one extra: capped at 0.5
    expect(fair.f1).toBeCloseTo(2 / 3, 10);
    const two = both("residue_ligand", "Yes: ARG NH1, O1", "Yes: ARG NH1, O1; ARG NH2, O1");
    expect(two.fair).toEqual({ exact: 0, partial: 1, f1: 2 / 3 });
  });
  it("ASP OD1/OD2 and GLU OE1/OE2 swap", () => {
    expect(both("residue_ligand", "Yes: ASP OD1, N2", "Yes: ASP OD2, N2").fair.exact).toBe(1);
    expect(both("residue_ligand", "Yes: GLU OE2, N2", "Yes: GLU OE1, N2").fair.exact).toBe(1);
  });
  it("ASN OD1 for ND2 is still wrong", () => {
    expect(both("residue_ligand", "Yes: ASN OD1, O3", "Yes: ASN ND2, O3").fair).toEqual({
      exact: 0,
      partial: 0,
      f1: 0,
    });
  });
  it("one obvious bond of nine: precision 1 (paper), F1 0.2", () => {
    const gold = "Yes: " + ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9"].map((o) => `SER OG, ${o}`).join("; ");
    const { paper, fair } = both("residue_ligand", "Yes: SER OG, O1", gold);
    expect(paper).toEqual({ exact: 0, partial: 1 });
    expect(fair.partial).toBe(1);
    expect(fair.f1).toBeCloseTo(0.2, 10);
  });
  it("No on a Neg. item", () => {
    expect(both("residue_ligand", "No", "No").fair).toEqual({ exact: 1, partial: 1, f1: 1 });
    expect(both("residue_ligand", "Yes: ARG NH1, O1", "No").fair).toEqual({ exact: 0, partial: 0, f1: 0 });
  });
});

describe("fair vs paper on T9", () => {
  it("swapped carboxylate oxygens on the right residue count; on another residue they do not", () => {
    expect(both("pocket_ligand", "ASP 25 OD2 A, O21", "ASP 25 OD1 A, O21").fair.exact).toBe(1);
    expect(both("pocket_ligand", "ASP 25 OD2 B, O21", "ASP 25 OD1 A, O21").fair.exact).toBe(0);
  });
});

describe("fairScoreOf", () => {
  it("is null for tasks where fair equals paper", () => {
    expect(fairScoreOf("translation", "move x 3", { axis: "x", distanceA: 3 })).toEqual({ ok: true, score: null });
  });
  it("an unparsable stored answer scores 0; a bad gold is an error", () => {
    expect(fairScoreOf("residue_ligand", "", { kind: "none" })).toEqual({
      ok: true,
      score: { exact: 0, partial: 0, f1: 0 },
    });
    expect(fairScoreOf("residue_ligand", "No", { kind: "maybe" }).ok).toBe(false);
  });
});
