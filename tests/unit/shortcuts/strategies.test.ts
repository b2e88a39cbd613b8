/**
 * Shortcut strategies (lib/shortcuts) on small hand-made items: each must find the key on a set built to leak it
 * (100 %) and sit at chance on a balanced set (the same options keyed once at every letter, or answers that share
 * nothing).
 */
import { describe, expect, it } from "vitest";
import { auditShortcuts, byT4Polarity, formatShortcutTable } from "@/lib/shortcuts/audit";
import {
  type PolarContact,
  SHORTCUT_STRATEGIES,
  type ShortcutItem,
  type ShortcutStrategy,
} from "@/lib/shortcuts/strategies";
import { MC_LETTERS, type TaskId } from "@/lib/tasks/types";

const strategy = (id: string) => {
  const s = SHORTCUT_STRATEGIES.find((x) => x.id === id);
  if (!s) throw new Error(`no strategy ${id}`);
  return s;
};
/** One strategy's accuracy on one task's items, as the audit reports it (null: not run). */
const measureStrategy = (s: ShortcutStrategy, items: ShortcutItem[]) =>
  auditShortcuts(items, { strategies: [s] })[0]?.strategies[0] ?? null;
const accuracy = (id: string, items: ShortcutItem[]) => measureStrategy(strategy(id), items)?.exact;

/** One MC item per letter: the key moved to A, B, C, D in turn (options rotated with it). */
function keyedAtEveryLetter(
  taskId: TaskId,
  truth: string,
  distractors: string[],
  rmsd?: (key: number) => number[][],
): ShortcutItem[] {
  return MC_LETTERS.map((letter, key) => {
    const options = [...distractors];
    options.splice(key, 0, truth);
    return {
      taskId,
      gold: { letter, options },
      canonicalAnswer: letter,
      ...(rmsd ? { optionPoseRmsd: rmsd(key) } : {}),
    };
  });
}

/** The same four options keyed once at each letter: no rule that reads only the options can beat 1/4 on average. */
function balancedSet(taskId: TaskId, options: string[], rmsd?: number[][]): ShortcutItem[] {
  return MC_LETTERS.map((letter) => ({
    taskId,
    gold: { letter, options },
    canonicalAnswer: letter,
    ...(rmsd ? { optionPoseRmsd: rmsd } : {}),
  }));
}

// The paper's T5 schemes: (a) both magnitudes changed, (b) translation sign flipped, (c) translation axis changed;
// every distractor changes the rotation angle, here all to 90°, so the key's 30° is unique.
const T5_TRUTH = "move x 2, roll y 30";
const T5_PAPER = ["move x 4, roll y 90", "move x -2, roll y 90", "move y 2, roll y 90"];
// A 2 × 2 product of partners (balanced distractors): every value appears in exactly two options.
const T5_BALANCED = ["move x 2, roll y 30", "move x -2, roll y 30", "move x 2, roll y 75", "move x -2, roll y 75"];

describe("option-text strategies", () => {
  it("unique-angle: 100 % when only the key keeps its angle, 25 % on the balanced set", () => {
    expect(accuracy("unique-angle", keyedAtEveryLetter("translation_rotation", T5_TRUTH, T5_PAPER))).toBe(1);
    expect(accuracy("unique-angle", balancedSet("translation_rotation", T5_BALANCED))).toBe(0.25);
  });
  it("slot-mirror (one-command sign mirror): finds the (b) pair, and with unique angle the key", () => {
    // Key and (b) share a flipped first command: 1/2 each.
    expect(
      accuracy(
        "slot-mirror",
        keyedAtEveryLetter("rotation_rotation", "roll x 45, roll y 30", [
          "roll x 90, roll y 60",
          "roll x -45, roll y 90",
          "roll z 45, roll y 90",
        ]),
      ),
    ).toBe(0.5);
    expect(
      accuracy(
        "slot-mirror+unique-angle",
        keyedAtEveryLetter("rotation_rotation", "roll x 45, roll y 30", [
          "roll x 90, roll y 60",
          "roll x -45, roll y 90",
          "roll z 45, roll y 90",
        ]),
      ),
    ).toBe(1);
    expect(
      accuracy(
        "slot-mirror+unique-angle",
        balancedSet("rotation_rotation", [
          "roll x 45, roll y 30",
          "roll x -45, roll y 30",
          "roll x 45, roll y -30",
          "roll x -45, roll y -30",
        ]),
      ),
    ).toBe(0.25);
  });
  it("sign-mirror (exact mirror): 50 % when only the key and one distractor mirror each other, 25 % balanced", () => {
    const items = keyedAtEveryLetter("interaction_location", "move x 3, move y 2", [
      "move x -3, move y -2",
      "move x 7, move y 1",
      "move x 0, move y 9",
    ]);
    expect(accuracy("sign-mirror", items)).toBe(0.5);
    expect(
      accuracy(
        "sign-mirror",
        balancedSet("interaction_location", [
          "move x 3, move y 2",
          "move x -3, move y 2",
          "move x 3, move y 5",
          "move x -3, move y 5",
        ]),
      ),
    ).toBe(0.25);
  });
  it("median: 100 % when the key sits in the middle of the options, 25 % balanced", () => {
    expect(
      accuracy(
        "median",
        keyedAtEveryLetter("interaction_location", "move x 3, move y 5", [
          "move x 0, move y 5",
          "move x 4, move y 0",
          "move x 9, move y 9",
        ]),
      ),
    ).toBe(1);
    expect(
      accuracy(
        "median",
        balancedSet("interaction_location", [
          "move x 3, move y 2",
          "move x -3, move y 2",
          "move x 3, move y 5",
          "move x -3, move y 5",
        ]),
      ),
    ).toBe(0.25);
  });
  it("odd-one-out: 100 % when the key is the outlier, 25 % balanced", () => {
    expect(
      accuracy(
        "odd-one-out",
        keyedAtEveryLetter("interaction_location", "move x 20, move y 20", [
          "move x 0, move y 0",
          "move x 1, move y 0",
          "move x 0, move y 1",
        ]),
      ),
    ).toBe(1);
    expect(
      accuracy(
        "odd-one-out",
        balancedSet("interaction_location", [
          "move x 3, move y 2",
          "move x -3, move y 2",
          "move x 3, move y 5",
          "move x -3, move y 5",
        ]),
      ),
    ).toBe(0.25);
  });
  it("most-shared: 100 % when the key shares the most values with the others, 25 % balanced", () => {
    // Shared kind/axis and magnitude per slot: key 8, the others 7, 7, 4.
    const items = keyedAtEveryLetter("translation_rotation", "move x 2, roll y 30", [
      "move x 2, roll y 90",
      "move x -2, roll y 45",
      "move y 2, roll z 30",
    ]);
    expect(accuracy("most-shared", items)).toBe(1);
    expect(accuracy("most-shared", balancedSet("translation_rotation", T5_BALANCED))).toBe(0.25);
  });
  it.each(["smallest-l1", "smallest-max", "smallest-euclid"])(
    "%s: 100 %% when the key is the shortest move, 0 %% when the longest, 25 %% on a balanced set",
    (id) => {
      const distractors = ["move x -6, move y 2", "move x 1, move y -7", "move x -6, move y -7"];
      expect(accuracy(id, keyedAtEveryLetter("interaction_location", "move x 1, move y 2", distractors))).toBe(1);
      expect(accuracy(id, keyedAtEveryLetter("interaction_location", "move x 9, move y 9", distractors))).toBe(0);
      expect(
        accuracy(
          id,
          balancedSet("interaction_location", [
            "move x 3, move y 2",
            "move x -3, move y 2",
            "move x 3, move y 5",
            "move x -3, move y 5",
          ]),
        ),
      ).toBe(0.25);
    },
  );
  it.each(["largest-l1", "largest-max", "largest-euclid"])("%s: 100 %% when the key is the longest move", (id) => {
    expect(
      accuracy(
        id,
        keyedAtEveryLetter("interaction_location", "move x 9, move y -9", [
          "move x 1, move y 2",
          "move x -1, move y 2",
          "move x 0, move y 0",
        ]),
      ),
    ).toBe(1);
  });
  it("the three norms can disagree: (5, 0) is shorter than (3, 3) by |dx|+|dy| only", () => {
    // |dx|+|dy|: 5 < 6; max: 5 > 3; Euclidean: 5 > 4.24.
    const items = keyedAtEveryLetter("interaction_location", "move x 5, move y 0", [
      "move x 3, move y 3",
      "move x -3, move y 8",
      "move x 9, move y 3",
    ]);
    expect(accuracy("smallest-l1", items)).toBe(1);
    expect(accuracy("smallest-max", items)).toBe(0);
    expect(accuracy("smallest-euclid", items)).toBe(0);
  });
  it.each(["sign-mirror+unique-angle", "unique-angle+median", "unique-angle+most-shared"])(
    "%s: 100 %% on the paper-like set (unique angle decides), 25 %% balanced",
    (id) => {
      expect(accuracy(id, keyedAtEveryLetter("translation_rotation", T5_TRUTH, T5_PAPER))).toBe(1);
      expect(accuracy(id, balancedSet("translation_rotation", T5_BALANCED))).toBe(0.25);
    },
  );
  it("every option-text and pose strategy is exactly at chance on a set keyed once at every letter", () => {
    const symmetric = [
      [0, 2, 3, 4],
      [2, 0, 4, 3],
      [3, 4, 0, 2],
      [4, 3, 2, 0],
    ];
    const items = balancedSet("translation_rotation", T5_BALANCED, symmetric);
    for (const s of SHORTCUT_STRATEGIES.filter((x) => x.appliesTo("translation_rotation")))
      expect(measureStrategy(s, items)?.exact, s.id).toBeCloseTo(0.25, 12);
  });
  it("does not run on options that are not command lists (imported letters-only keys)", () => {
    expect(measureStrategy(strategy("median"), balancedSet("interaction_location", ["A", "B", "C", "D"]))).toBeNull();
  });
});

describe("option-pose strategies", () => {
  // The key's pose is 10 Å from every other option, the others 1 Å apart: farthest-pose finds it, closest-pose never.
  const keyFar = (key: number) =>
    [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 0 : i === key || j === key ? 10 : 1)));
  it("farthest-pose 100 %, closest-pose 0 % when the key is the outlying pose", () => {
    const items = keyedAtEveryLetter("translation_rotation", T5_TRUTH, T5_PAPER, keyFar);
    expect(accuracy("farthest-pose", items)).toBe(1);
    expect(accuracy("isolated-pose", items)).toBe(1);
    expect(accuracy("closest-pose", items)).toBe(0);
  });
  it("closest-pose 100 % when the key is the central pose (the three others tie for farthest, so not-farthest-pose also finds it)", () => {
    const keyNear = (key: number) =>
      [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 0 : i === key || j === key ? 1 : 10)));
    const items = keyedAtEveryLetter(
      "rotation_rotation",
      "roll x 45, roll y 30",
      ["roll x 90, roll y 60", "roll x -45, roll y 90", "roll z 45, roll y 90"],
      keyNear,
    );
    expect(accuracy("closest-pose", items)).toBe(1);
    expect(accuracy("farthest-pose", items)).toBe(0);
    expect(accuracy("not-farthest-pose", items)).toBe(1);
    // Unique angle narrows to the key, and the farthest pose among those is the key.
    expect(
      accuracy("farthest-pose+unique-angle", keyedAtEveryLetter("translation_rotation", T5_TRUTH, T5_PAPER, keyNear)),
    ).toBe(1);
  });
  it("chance when every pose is equally far from the others", () => {
    const equal = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 0 : 5)));
    expect(accuracy("farthest-pose", balancedSet("rotation_rotation", T5_BALANCED, equal))).toBe(0.25);
  });
  it("needs stored poses (none: not run)", () => {
    expect(measureStrategy(strategy("farthest-pose"), balancedSet("translation_rotation", T5_BALANCED))).toBeNull();
  });
});

const contact = (
  atomName: string,
  ligandAtomName: string,
  distanceA: number,
  residueName = "SER",
  residueNumber = 195,
): PolarContact => ({
  residueName,
  residueNumber,
  insertionCode: "",
  chainId: "A",
  atomName,
  ligandAtomName,
  distanceA,
});

describe("polar-distance rules (T4, T9)", () => {
  const pos: ShortcutItem = {
    taskId: "residue_ligand",
    gold: { kind: "bonds", bonds: [{ residueName: "SER", atomName: "OG", ligandAtomName: "O1" }] },
    canonicalAnswer: "Yes: SER OG, O1",
    polarContacts: [contact("OG", "O1", 2.7), contact("N", "O1", 4.2)],
  };
  const easyNeg: ShortcutItem = {
    taskId: "residue_ligand",
    gold: { kind: "none" },
    canonicalAnswer: "No",
    polarContacts: [contact("OG", "O1", 4.7)],
  };
  // A hard negative: a polar pair at 3.0 Å that is no H-bond (geometry), so a distance rule answers Yes.
  const hardNeg: ShortcutItem = {
    taskId: "residue_ligand",
    gold: { kind: "none" },
    canonicalAnswer: "No",
    polarContacts: [contact("OG", "O1", 3.0)],
  };
  it("a 3.2 Å rule reproduces keys whose negatives are far (100 %), fails hard negatives", () => {
    expect(accuracy("polar-3.2A", [pos, easyNeg])).toBe(1);
    expect(accuracy("polar-3.2A", [hardNeg])).toBe(0);
  });
  it("a 3.5 Å rule lists a 3.4 Å bond that the 3.2 Å rule misses", () => {
    const longer: ShortcutItem = { ...pos, polarContacts: [contact("OG", "O1", 3.4)] };
    expect(accuracy("polar-3.2A", [longer])).toBe(0);
    expect(accuracy("polar-3.5A", [longer])).toBe(1);
  });
  it("T9: lists every pair within the distance in the T9 grammar and is scored by the task's rule", () => {
    const t9: ShortcutItem = {
      taskId: "pocket_ligand",
      gold: {
        kind: "bonds",
        bonds: [
          {
            residueName: "SER",
            residueNumber: 195,
            insertionCode: "",
            chainId: "A",
            atomName: "OG",
            ligandAtomName: "O1",
          },
        ],
      },
      canonicalAnswer: "SER 195 OG A, O1",
      polarContacts: [contact("OG", "O1", 2.7), contact("ND2", "O2", 3.1, "ASN", 12)],
    };
    const s = measureStrategy(strategy("polar-3.2A"), [t9])!;
    expect(s.exact).toBe(0);
    expect(s.partial).toBe(0.5); // every true bond plus one extra: capped at 0.5 (spec §4)
  });
});

describe("most-common answer (cloze)", () => {
  const t1 = (axis: "x" | "y", d: number): ShortcutItem => ({
    taskId: "translation",
    gold: { axis, distanceA: d },
    canonicalAnswer: `move ${axis} ${d}`,
  });
  it("leave-one-out: the majority answer scores on every majority item, never on the odd one", () => {
    const items = [t1("x", 1), t1("x", 1), t1("x", 1), t1("x", 1), t1("x", 1), t1("y", 2)];
    expect(accuracy("most-common-answer", items)).toBeCloseTo(5 / 6, 12);
  });
  it("answers that share nothing: the item's own key never helps (0 %)", () => {
    expect(accuracy("most-common-answer", [t1("x", 1), t1("x", 2), t1("y", 3), t1("y", -4)])).toBe(0);
  });
  it("T4: 'No' is the most common answer; split by polarity it is 100 % on Neg. and 0 % on Pos.", () => {
    const neg = (n: number): ShortcutItem => ({
      taskId: "residue_ligand",
      gold: { kind: "none" },
      canonicalAnswer: "No",
      polarContacts: [contact("OG", "O1", 4 + n)],
    });
    const posItem = (atom: string): ShortcutItem => ({
      taskId: "residue_ligand",
      gold: { kind: "bonds", bonds: [{ residueName: "SER", atomName: atom, ligandAtomName: "O1" }] },
      canonicalAnswer: `Yes: SER ${atom}, O1`,
    });
    const audits = auditShortcuts([neg(1), neg(2), neg(3), posItem("OG"), posItem("N")], { groupOf: byT4Polarity });
    const mc = (g: string) =>
      audits.find((a) => a.group === g)!.strategies.find((s) => s.id === "most-common-answer")!.exact;
    expect(mc("neg")).toBe(1);
    expect(mc("pos")).toBe(0);
  });
});

describe("audit", () => {
  it("reports chance, every applicable strategy with a Wilson interval, and the best", () => {
    const items = keyedAtEveryLetter("translation_rotation", T5_TRUTH, T5_PAPER);
    const [audit] = auditShortcuts(items);
    expect(audit!.chance).toBe(0.25);
    expect(audit!.best!.exact).toBe(1);
    // 4 of 4: Wilson 95 % lower limit 0.5101 (R: prop.test(4, 4, correct = FALSE)$conf.int).
    expect(audit!.best!.low).toBeCloseTo(0.5101, 4);
    expect(audit!.best!.high).toBe(1);
    expect(audit!.strategies.some((s) => s.id === "most-common-answer")).toBe(false);
    const table = formatShortcutTable([audit!]);
    expect(table).toMatch(/T5 translation_rotation\s+4\s+25\.0\s+unique-angle/);
  });
});
