import { findOptionTextLeaks, type TaskShortcutAudit } from "@/lib/shortcuts/audit";
import { getTask } from "@/lib/tasks/registry";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * Beside the human-vs-model table: where a T5/T6/T8 column is compared and the pool's options give the key away by
 * their text structure (the paper's distractor recipe; see findOptionTextLeaks), a model's score there measures that structure, not spatial
 * reasoning (humans see those options as images). Nothing when no compared column leaks.
 */
export function OptionTextWarning({
  audits,
  comparedTaskIds,
}: {
  audits: readonly TaskShortcutAudit[];
  comparedTaskIds: readonly string[];
}) {
  const leaks = findOptionTextLeaks(audits).filter((l) => comparedTaskIds.includes(l.taskId));
  if (leaks.length === 0) return null;
  return (
    <div
      role="note"
      data-testid="option-text-warning"
      className="rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="font-semibold">
        {leaks.map((l) => getTask(l.taskId).code).join(" and ")} model scores measure option-text structure, not spatial
        reasoning.
      </p>
      <p>
        On this pool&apos;s items a rule that reads only the option texts (the commands each option image shows) finds
        the key:{" "}
        {leaks
          .map(
            (l) =>
              `${getTask(l.taskId).code} ${pct(l.best.exact)} (95% CI ${pct(l.best.low)}–${pct(l.best.high)}, ${l.best.label}, ${l.items} items)`,
          )
          .join("; ")}
        . In the paper&apos;s distractor recipe only the T5/T6 key has both a sign-flipped and a same-value-other-axis
        partner, T8&apos;s distractors are drawn around the key so the sizes of the moves point at it, and the option
        images carry the same relations. A model given the option texts, or one that recovers the commands from the
        images, can answer from that structure without spatial reasoning (this app&apos;s VLMEvalKit export gives T5/T6
        options as images only). Compare models on items generated with <code>distractors: &quot;balanced&quot;</code>{" "}
        (docs/shortcuts.md).
      </p>
    </div>
  );
}
