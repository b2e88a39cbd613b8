// The human-vs-model table warns that T5/T6 model scores measure option-text structure when the pool's options give
// the key away by their texts (the paper's recipe), and says nothing on balanced options or uncompared tasks.
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ComparisonTable } from "@/components/results/comparison-table";
import type { ColumnComparison } from "@/lib/results/compare";
import type { ModelComparisonDto } from "@/lib/server/dal/results/compare-with-models";
import { auditShortcuts } from "@/lib/shortcuts/audit";
import type { ShortcutItem } from "@/lib/shortcuts/strategies";
import { mcnemarExact } from "@/lib/stats/mcnemar-exact";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { MC_LETTERS, type TaskId } from "@/lib/tasks/types";

/** Paper-recipe options around the key (b: sign flip, c: other axis, every distractor another angle), keyed once at each letter. */
function paperItems(taskId: TaskId, truth: string, distractors: readonly string[]): ShortcutItem[] {
  return MC_LETTERS.map((letter, key) => {
    const options = [...distractors];
    options.splice(key, 0, truth);
    return { taskId, gold: { letter, options }, canonicalAnswer: letter };
  });
}
/** A 2 × 2 product keyed once at every corner. */
function balancedItems(taskId: TaskId, options: readonly string[]): ShortcutItem[] {
  return MC_LETTERS.map((letter) => ({ taskId, gold: { letter, options: [...options] }, canonicalAnswer: letter }));
}

const T5_PAPER = paperItems("translation_rotation", "move x 2, roll y 30", [
  "move x 4, roll y 60",
  "move x -2, roll y 90",
  "move y 2, roll y 75",
]);
const T6_PAPER = paperItems("rotation_rotation", "roll x 45, roll y 30", [
  "roll x 90, roll y 60",
  "roll x -45, roll y 90",
  "roll z 45, roll y 75",
]);
// T8 options where the key is the median move (a rule reading only the texts finds it), and a 2 × 2 product.
const T8_PAPER = paperItems("interaction_location", "move x 3, move y 5", [
  "move x 0, move y 5",
  "move x 4, move y 0",
  "move x 9, move y 9",
]);
const T8_BALANCED = balancedItems("interaction_location", [
  "move x 3, move y 2",
  "move x -3, move y 2",
  "move x 3, move y 5",
  "move x -3, move y 5",
]);
const T5_BALANCED = balancedItems("translation_rotation", [
  "move x 2, roll y 30",
  "move y 2, roll y 30",
  "move x 2, roll y -30",
  "move y 2, roll y -30",
]);

function column(
  taskId: "translation_rotation" | "rotation_rotation" | "interaction_location",
  label: string,
  withModel: boolean,
): ColumnComparison {
  const w = wilsonInterval(3, 4);
  return {
    column: taskId,
    taskId,
    label,
    models: withModel
      ? [
          {
            modelId: "run-1",
            nItems: 4,
            nHumanResponses: 8,
            human: { meanOfItemMeans: 0.5, partialMeanOfItemMeans: 0.5, majority: wilsonInterval(2, 4), nTies: 0 },
            model: {
              mean: 0.75,
              partialMean: 0.75,
              wilson: w,
              fair: { mean: 0.75, partialMean: 0.75, f1Mean: 0.75, wilson: w },
            },
            mcnemar: mcnemarExact(0, 1),
            difference: 0.25,
          },
        ]
      : [],
    best: null,
    nHumanOnlyItems: 0,
    nModelOnlyItems: 0,
  };
}

function render(columns: ColumnComparison[], items: ShortcutItem[]): string {
  const dto: ModelComparisonDto = {
    runs: [
      {
        id: "run-1",
        name: "vlm",
        model: "vlm",
        source: "vlmevalkit",
        importedAt: new Date(0),
        nPredictions: 4,
        nUnparseable: 0,
      },
    ],
    condition: null,
    comparison: { humanOutcomeRule: "rule", condition: null, confidence: 0.95, columns },
    unparseable: {},
    problems: [],
  };
  return renderToStaticMarkup(h(ComparisonTable, { dto, audits: auditShortcuts(items) })).replace(/<!-- -->/g, "");
}

describe("option-text warning on the human-vs-model table", () => {
  it("paper recipe: T5 and T6 model scores are flagged, with the rule's accuracy on the pool's items", () => {
    const html = render(
      [column("translation_rotation", "T5", true), column("rotation_rotation", "T6", true)],
      [...T5_PAPER, ...T6_PAPER],
    );
    expect(html).toContain('data-testid="option-text-warning"');
    expect(html).toContain("T5 and T6 model scores measure option-text structure");
    expect(html).toContain(
      "T5 100.0% (95% CI 51.0%–100.0%, option with a sign-flipped and a same-value-other-axis partner, 4 items)",
    );
  });
  it("T8 is flagged when its option-text rule beats chance (95 % CI above 25 %), not on balanced options", () => {
    const html = render([column("interaction_location", "T8", true)], T8_PAPER);
    expect(html).toContain("T8 model scores measure option-text structure");
    expect(html).toMatch(/T8 100\.0% \(95% CI 51\.0%–100\.0%, [^,]+, 4 items\)/);
    expect(render([column("interaction_location", "T8", true)], T8_BALANCED)).not.toContain("option-text-warning");
  });
  it("balanced options, or a leaking task no model answered: no warning", () => {
    expect(render([column("translation_rotation", "T5", true)], T5_BALANCED)).not.toContain("option-text-warning");
    expect(render([column("translation_rotation", "T5", false)], T5_PAPER)).not.toContain("option-text-warning");
  });
});
