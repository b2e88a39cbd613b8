import { taskDisplayName } from "@/lib/tasks/display-name";

/**
 * Whether a study's settings fit its pool version: every task holds enough main-block items for one
 * participant, and the answer quota (items × k) covers the participant cap (cap × items per task). The
 * same check runs when a study is saved (form and API) and when it opens, so a setting the pool cannot
 * satisfy is refused where it is entered, not found on the study page afterwards. Opening also needs a
 * frozen pool version; a quota shortfall there (items excluded since saving) is a warning, not a refusal.
 */

export interface ReadinessInput {
  poolFrozen: boolean;
  tasks: readonly string[];
  itemsPerTask: number;
  /** k: target answers per item. */
  answersPerItem: number;
  maxParticipants: number | null;
  /** Active pool items per task that can be served in the main block (practice/attention items excluded). */
  mainItemsPerTask: Readonly<Record<string, number>>;
  /** Practice and attention items reserved out of each task's main block (only to explain a shortfall). */
  reservedPerTask?: Readonly<Record<string, number>>;
  /** "save": the study form and API (no frozen pool needed; a quota shortfall refuses). "open" (default): opening. */
  stage?: "save" | "open";
}

/** A problem with the form field it belongs to (a study-input path such as config.itemsPerTask). */
export interface ReadinessProblem {
  path: string;
  message: string;
}

export interface TaskReadiness {
  taskId: string;
  available: number;
  required: number;
  /** available × k: answers the pool can collect before every item reaches its quota. */
  supplyAnswers: number;
  /** maxParticipants × itemsPerTask, or null without a participant cap. */
  demandAnswers: number | null;
}

export interface Readiness {
  /** Blocking problems: the study cannot be saved (stage "save") or open while any is present. */
  errors: string[];
  /** The same problems with the field each belongs to. */
  problems: ReadinessProblem[];
  /** Worth a look, not blocking. */
  warnings: string[];
  perTask: TaskReadiness[];
  /** Participants who can complete the main block before some task runs out of quota. */
  capacityParticipants: number;
}

/** Pure check used by the study form and API (stage "save"), the open action and the study page. Messages name tasks as people read them. */
export function checkStudyReadiness(input: ReadinessInput): Readiness {
  const stage = input.stage ?? "open";
  const problems: ReadinessProblem[] = [];
  const warnings: string[] = [];
  if (stage === "open" && !input.poolFrozen) {
    problems.push({
      path: "poolVersionId",
      message:
        "The pool version is not frozen. Freeze it on the pool page first, so the items cannot change under a running study.",
    });
  }
  const perTask: TaskReadiness[] = input.tasks.map((taskId) => {
    const available = input.mainItemsPerTask[taskId] ?? 0;
    return {
      taskId,
      available,
      required: input.itemsPerTask,
      supplyAnswers: available * input.answersPerItem,
      demandAnswers: input.maxParticipants === null ? null : input.maxParticipants * input.itemsPerTask,
    };
  });
  for (const t of perTask) {
    const name = taskDisplayName(t.taskId);
    const reserved = input.reservedPerTask?.[t.taskId] ?? 0;
    const reservedNote =
      reserved > 0 ? ` (${reserved} more are practice or attention items, kept out of the main block)` : "";
    if (t.available === 0) {
      problems.push({
        path: "config.tasks",
        message: `${name}: the pool version has no active item of this task${reservedNote}. Remove the task or add items to the pool.`,
      });
    } else if (t.available < t.required) {
      problems.push({
        path: "config.itemsPerTask",
        message: `${name}: the pool has ${t.available} active item(s)${reservedNote}, but each participant needs ${t.required} different ones. Lower items per task to ${t.available} or add items.`,
      });
    }
  }
  const capacityParticipants = perTask.length
    ? Math.min(...perTask.map((t) => Math.floor(t.supplyAnswers / input.itemsPerTask)))
    : 0;
  if (problems.length === 0) {
    if (input.maxParticipants === null) {
      if (stage === "open")
        warnings.push(
          `No participant cap is set: about ${capacityParticipants} participant(s) can be served before some task's items all reach k = ${input.answersPerItem} answers.`,
        );
    } else {
      for (const t of perTask) {
        if (t.demandAnswers !== null && t.supplyAnswers < t.demandAnswers) {
          const served = Math.floor(t.supplyAnswers / input.itemsPerTask);
          const neededK = Math.ceil(t.demandAnswers / t.available);
          const text = `${taskDisplayName(t.taskId)}: ${t.available} items × k ${input.answersPerItem} = ${t.supplyAnswers} answers, less than the expected demand of ${input.maxParticipants} participants × ${input.itemsPerTask} = ${t.demandAnswers}; only about ${served} participants can be served.`;
          if (stage === "save") {
            problems.push({
              path: "config.maxParticipants",
              message: `${text} Lower the cap to ${served}, raise answers per item to ${neededK}, or add items.`,
            });
          } else {
            warnings.push(text);
          }
        }
      }
    }
  }
  return { errors: problems.map((p) => p.message), problems, warnings, perTask, capacityParticipants };
}
