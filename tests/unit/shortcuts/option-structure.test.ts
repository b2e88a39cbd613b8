/**
 * Option-set structure rules and the learned attacker (lib/shortcuts/option-structure.ts) on hand-built option sets:
 * where the paper's T5 recipe gives the key a sign-flipped and a same-value-other-axis partner, the rule and the
 * attacker (trained on other sets) find it every time; on a 2 × 2 product keyed once at every corner, both are at 1/4.
 */
import { describe, expect, it } from "vitest";
import {
  OPTION_STRUCTURE_RULES,
  crossValidateAttacker,
  crossValidateBestRule,
  meanExact,
  optionFeatures,
  parseOptionCommands,
} from "@/lib/shortcuts/option-structure";
import type { ShortcutItem } from "@/lib/shortcuts/strategies";
import { MC_LETTERS, type TaskId } from "@/lib/tasks/types";

const rule = (id: string) => {
  const r = OPTION_STRUCTURE_RULES.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
};

/** The key moved to A, B, C, D in turn, the distractors around it in their order. */
function keyedAtEveryLetter(taskId: TaskId, truth: string, distractors: readonly string[]): ShortcutItem[] {
  return MC_LETTERS.map((letter, key) => {
    const options = [...distractors];
    options.splice(key, 0, truth);
    return { taskId, gold: { letter, options }, canonicalAnswer: letter };
  });
}

/** The same four options keyed once at each letter. */
function keyedAtEveryCorner(taskId: TaskId, options: readonly string[]): ShortcutItem[] {
  return MC_LETTERS.map((letter) => ({ taskId, gold: { letter, options: [...options] }, canonicalAnswer: letter }));
}

/** A paper-recipe T5 item: (a) both magnitudes changed, (b) the move's sign flipped, (c) its axis switched; every distractor changes the angle. */
function paperT5(
  m: number,
  angle: number,
  changedM: number,
  angles: readonly [number, number, number],
): ShortcutItem[] {
  return keyedAtEveryLetter("translation_rotation", `move x ${m}, roll y ${angle}`, [
    `move x ${changedM}, roll y ${angles[0]}`,
    `move x ${-m}, roll y ${angles[1]}`,
    `move y ${m}, roll y ${angles[2]}`,
  ]);
}

/** A 2 × 2 product {first, first'} × {second, second'}. */
const corners = (a: string, a2: string, b: string, b2: string) => [
  `${a}, ${b}`,
  `${a2}, ${b}`,
  `${a}, ${b2}`,
  `${a2}, ${b2}`,
];

describe("option-set structure rules", () => {
  it("parses option texts into commands", () => {
    expect(parseOptionCommands("move x -3, roll z 45")).toEqual([
      { kind: "move", axis: "x", value: -3 },
      { kind: "roll", axis: "z", value: 45 },
    ]);
    expect(parseOptionCommands("No")).toBeNull();
  });

  it("a sign-flip and an other-axis partner in the first command: 100 % on the paper's T5 recipe", () => {
    // Key move x 2: (b) move x -2 is its sign flip, (c) move y 2 the same value on another axis; no distractor has both.
    const items = [...paperT5(2, 30, 4, [90, 60, 45]), ...paperT5(-3, 45, 1, [15, 75, 90])];
    expect(meanExact(rule("has-sign-flip@first+other-axis@first"), items)?.exact).toBe(1);
  });

  it("odd-one-out by a field: the key's angle is the unique one when every distractor shares a changed angle", () => {
    expect(meanExact(rule("odd-magnitude@second"), paperT5(2, 30, 4, [90, 90, 90]))?.exact).toBe(1);
  });

  it("every rule is exactly at chance on a 2 × 2 product keyed once at every corner", () => {
    const sets = [
      keyedAtEveryCorner("translation_rotation", corners("move x 2", "move y 2", "roll y 30", "roll y -30")),
      keyedAtEveryCorner("rotation_rotation", corners("roll x 45", "roll x -45", "roll y 30", "roll y 90")),
      keyedAtEveryCorner("interaction_location", corners("move x 3", "move x -1", "move y 0", "move y 4")),
    ];
    for (const items of sets)
      for (const r of OPTION_STRUCTURE_RULES) expect([r.id, meanExact(r, items)?.exact ?? 0.25]).toEqual([r.id, 0.25]);
  });

  it("features do not depend on the options' order", () => {
    const options = corners("move x 2", "move y 2", "roll y 30", "roll y -30").map((o) => parseOptionCommands(o)!);
    const shuffled = [options[2]!, options[0]!, options[3]!, options[1]!];
    const f = optionFeatures(options);
    expect(optionFeatures(shuffled)).toEqual([f[2], f[0], f[3], f[1]]);
  });
});

describe("held-out attackers (trained on some complexes, tested on others)", () => {
  const leakyFold = (seed: number) =>
    [2, 3, 4, 1].flatMap((m, i) =>
      paperT5(((i + seed) % 2 === 0 ? 1 : -1) * m, [30, 45, 60, 15][i]!, m === 4 ? 1 : 4, [90, 75, 60]),
    );
  const balancedFold = (shift: number) => [
    ...keyedAtEveryCorner(
      "translation_rotation",
      corners(`move x ${1 + shift}`, `move x ${-1 - shift}`, "roll y 30", "roll y 75"),
    ),
    ...keyedAtEveryCorner(
      "translation_rotation",
      corners(`move y ${2 + shift}`, `move x ${2 + shift}`, "roll z 45", "roll z -45"),
    ),
  ];

  it("the learned attacker finds the paper recipe's key on unseen sets (100 %) and is at chance on balanced ones", () => {
    expect(crossValidateAttacker([leakyFold(0), leakyFold(1)])).toEqual({ exact: 1, n: 32 });
    expect(crossValidateAttacker([balancedFold(0), balancedFold(1)])).toEqual({ exact: 0.25, n: 16 });
  });

  it("the best rule is chosen on the training fold and measured on the other", () => {
    expect(crossValidateBestRule([leakyFold(0), leakyFold(1)], OPTION_STRUCTURE_RULES)?.exact).toBe(1);
    expect(crossValidateBestRule([balancedFold(0), balancedFold(1)], OPTION_STRUCTURE_RULES)).toEqual({
      exact: 0.25,
      n: 16,
    });
  });
});
