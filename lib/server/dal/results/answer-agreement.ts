import "server-only";
import type { ResponseRecord } from "@/lib/results/response-records";
import { RESULT_TASK_IDS, type ResultTaskId } from "@/lib/results/task-columns";
import { krippendorffAlpha, type AlphaLevel, type KrippendorffAlphaResult } from "@/lib/stats/krippendorff-alpha";

export interface AnswerAgreement {
  taskId: ResultTaskId;
  level: AlphaLevel;
  /** Why this level fits the task's answers. */
  basis: string;
  result: KrippendorffAlphaResult | null;
}

/** Zooming answers are `move z <d>`: one axis, so the distance alone is the answer, on an interval scale. */
const ZOOM_DISTANCE = /^move z (-?\d+(?:\.\d+)?)$/;

/**
 * Krippendorff's alpha where it fits: nominal alpha on canonical answers for every task (two
 * participants agree when they gave the same canonical answer; timed-out responses are missing),
 * and interval alpha on the distance for zooming, the one task whose answer is a single number.
 * Commands with an axis (T1, T2, T7) are not interval data: a distance on the wrong axis is not
 * "close" to the right one.
 */
export function computeAnswerAgreement(records: readonly ResponseRecord[]): AnswerAgreement[] {
  const out: AnswerAgreement[] = [];
  for (const taskId of RESULT_TASK_IDS) {
    const byItem = new Map<string, (string | undefined)[]>();
    for (const r of records) {
      if (r.taskId !== taskId) continue;
      const list = byItem.get(r.itemId);
      if (list) list.push(r.answer);
      else byItem.set(r.itemId, [r.answer]);
    }
    if (byItem.size === 0) continue;
    const units = [...byItem.values()];
    out.push({ taskId, level: "nominal", basis: "same canonical answer", result: krippendorffAlpha(units, "nominal") });
    if (taskId === "zooming") {
      const distances = units.map((u) =>
        u.map((a) => {
          const m = a === undefined ? null : ZOOM_DISTANCE.exec(a);
          return m ? Number(m[1]) : null;
        }),
      );
      out.push({
        taskId,
        level: "interval",
        basis: "zoom distance in Å (one axis)",
        result: krippendorffAlpha(distances, "interval"),
      });
    }
  }
  return out;
}
