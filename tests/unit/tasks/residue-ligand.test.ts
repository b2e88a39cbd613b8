import { describe, expect, it } from "vitest";
import type { ResidueBond } from "@/lib/tasks/grammar/hbond";
import {
  classifyResidueLigandItem,
  residueLigandTask as task,
  type ResidueLigandAnswer,
} from "@/lib/tasks/residue-ligand";

const bond = (atomName: string, ligandAtomName: string, residueName = "ARG"): ResidueBond => ({
  residueName,
  atomName,
  ligandAtomName,
});
const bonds = (...list: ResidueBond[]): ResidueLigandAnswer => ({ kind: "bonds", bonds: list });
const NONE: ResidueLigandAnswer = { kind: "none" };

describe("T4 residue–ligand grammar", () => {
  it("reads the paper's example and canonicalises it as a sorted set", () => {
    const parsed = task.parseAnswer("Yes: ARG NH2, O1B; ARG NE, O2G");
    expect(parsed).toEqual({
      ok: true,
      value: bonds(bond("NE", "O2G"), bond("NH2", "O1B")),
      canonical: "Yes: ARG NE, O2G; ARG NH2, O1B",
    });
    if (parsed.ok) expect(task.parseAnswer(parsed.canonical)).toEqual(parsed);
  });

  it.each([
    ["yes:arg ne,o2g;arg nh2,o1b;", "Yes: ARG NE, O2G; ARG NH2, O1B"],
    ["YES :  ARG  NH2 ,  O1B ;\tARG NE , O2G .", "Yes: ARG NE, O2G; ARG NH2, O1B"],
    ["Yes: ARG NH2, O1B; arg nh2, o1b", "Yes: ARG NH2, O1B"], // duplicates collapse
    ["No", "No"],
    ["no.", "No"],
    ["  NO ", "No"],
    ["Yes: ATP O5', O2G", "Yes: ATP O5', O2G"], // primes in atom names
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (parsed.ok) expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  const EG = " — e.g. 'Yes: ARG NH2, O1B; ARG NE, O2G'";
  it.each([
    ["", `the answer is empty: expected 'No' or 'Yes: <RES> <atom>, <ligand atom>; ...'${EG}`],
    ["maybe", `expected 'No' or 'Yes: <RES> <atom>, <ligand atom>; ...', got 'maybe'${EG}`],
    [
      "ARG NH2, O1B",
      `expected 'No' or 'Yes: <RES> <atom>, <ligand atom>; ...', got 'ARG NH2, O1B': start the list with 'Yes:'${EG}`,
    ],
    ["No bonds", `unexpected 'bonds' after 'No': answer just 'No' when there are no hydrogen bonds${EG}`],
    ["Yes ARG NH2, O1B", `expected ':' after 'Yes'${EG}`],
    ["Yes:", `list at least one bond after 'Yes:'${EG}`],
    [
      "Yes: ARG 45 NH2, O1B",
      `bond 1 ('ARG 45 NH2, O1B'): name the residue by its 3-letter code only, without a number: write 'ARG NH2'${EG}`,
    ],
    [
      "Yes: ARG NH2 O1B",
      `bond 1 ('ARG NH2 O1B'): expected a comma between the protein atom and the ligand atom, as in 'ARG NH2, O1'${EG}`,
    ],
    [
      "Yes: ARG NH2, O1B, O2G",
      `bond 1 ('ARG NH2, O1B, O2G'): expected one comma per bond ('<RES> <atom>, <ligand atom>'); separate bonds with ';'${EG}`,
    ],
    ["Yes: ARG NH2, O1B;; ARG NE, O2G", `bond 2 is empty (two ';' in a row?)${EG}`],
    [
      "Yes: ARG NH2, O1B O2G",
      `bond 1 ('ARG NH2, O1B O2G'): expected one ligand atom name after the comma, got 'O1B O2G'${EG}`,
    ],
    ["Yes: ARG NH2,", `bond 1 ('ARG NH2,'): expected a ligand atom name after the comma${EG}`],
    [
      "Yes: ARGININE NH2, O1B",
      `bond 1 ('ARGININE NH2, O1B'): 'ARGININE' is not a 3-letter residue code: it has 8 characters, at most 3${EG}`,
    ],
    ["Yes: NH2, O1B", `bond 1 ('NH2, O1B'): expected '<RES> <atom>' before the comma (e.g. 'ARG NH2'), got 'NH2'${EG}`],
    [
      "Yes: ARG NH2, O#1",
      `bond 1 ('ARG NH2, O#1'): 'O#1' is not a ligand atom name: the character '#' (U+0023) cannot be part of it (letters, digits, ' " * _ only)${EG}`,
    ],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T4 residue–ligand scoring", () => {
  const two = bonds(bond("NH2", "O1B"), bond("NE", "O2G"));
  it.each([
    ["the same set", 1, 1, two],
    ["the same set in another order and case", 1, 1, bonds(bond("ne", "o2g", "arg"), bond("NH2", "O1B"))],
    ["2 true of 2 + 1 extra (capped at 0.5)", 0, 0.5, bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O3G"))],
    [
      "2 true of 2 + 2 extra (4 = 2 × 2, precision 0.5)",
      0,
      0.5,
      bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O3G"), bond("NH1", "O1B")),
    ],
    [
      "5 answered vs 2 true (more than twice)",
      0,
      0,
      bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O3G"), bond("NH1", "O1B"), bond("NE", "O1B")),
    ],
    ["1 of 2 true and 1 false (precision 1/2)", 0, 0.5, bonds(bond("NH2", "O1B"), bond("NH1", "O3G"))],
    [
      "1 of 2 true and 2 false (precision 1/3)",
      0,
      1 / 3,
      bonds(bond("NH2", "O1B"), bond("NH1", "O3G"), bond("NE", "O1B")),
    ],
    ["1 of 2 true, nothing false (precision 1, not exact)", 0, 1, bonds(bond("NH2", "O1B"))],
    ["only false bonds", 0, 0, bonds(bond("NH1", "O3G"))],
    ["the right atoms on another residue", 0, 0, bonds(bond("NH2", "O1B", "LYS"), bond("NE", "O2G", "LYS"))],
    ["'No' on a bonded item", 0, 0, NONE],
  ])("%s scores exact %d, partial %d", (_label, exact, partial, answer) => {
    expect(task.score(answer, two)).toEqual({ exact, partial });
  });

  it("caps a superset at 0.5 even when its precision is higher", () => {
    const three = bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O3G"));
    const fourAnswered = bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O3G"), bond("NH1", "O1B"));
    expect(task.score(fourAnswered, three)).toEqual({ exact: 0, partial: 0.5 }); // precision 3/4
    const subset = bonds(bond("NH2", "O1B"), bond("NE", "O2G"), bond("NH1", "O1B"));
    expect(task.score(subset, three)).toEqual({ exact: 0, partial: 2 / 3 }); // not every true bond: plain precision
  });

  it("scores no-bond items: 'No' is right, any bond is wrong", () => {
    expect(task.score(NONE, NONE)).toEqual({ exact: 1, partial: 1 });
    expect(task.score(bonds(bond("NH2", "O1B")), NONE)).toEqual({ exact: 0, partial: 0 });
  });

  it("classifies items as Pos./Neg. from the gold", () => {
    expect(classifyResidueLigandItem(two)).toBe("pos");
    expect(classifyResidueLigandItem(NONE)).toBe("neg");
  });

  it("rejects an item whose gold bonds are on another residue than the question's", () => {
    const fields = { pdbId: "1hii", residue: { residueName: "ARG", residueNumber: 45, chainId: "A" } };
    expect(task.itemSchema.safeParse({ fields, gold: two }).success).toBe(true);
    const wrong = task.itemSchema.safeParse({ fields, gold: bonds(bond("NZ", "O1B", "LYS")) });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe("gold bond LYS NZ, O1B is not on the question's residue ARG");
  });

  it("rejects stored gold with an empty bond list (use kind 'none')", () => {
    expect(task.goldSchema.safeParse({ kind: "bonds", bonds: [] }).success).toBe(false);
  });
});
