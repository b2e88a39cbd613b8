/**
 * Whether a study can open: its pool version must be frozen and hold enough main-block items per task,
 * and its answer quota (items × k) should cover the expected demand (participants × items per task).
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
  /** Blocking problems: the study cannot open while any is present. */
  errors: string[];
  /** Worth a look, not blocking. */
  warnings: string[];
  perTask: TaskReadiness[];
  /** Participants who can complete the main block before some task runs out of quota. */
  capacityParticipants: number;
}

/** Pure check used by the open action and shown on the study page before opening. */
export function checkStudyReadiness(input: ReadinessInput): Readiness {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!input.poolFrozen) errors.push("The pool version is not frozen. Freeze it on the pool page first, so the items cannot change under a running study.");
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
    if (t.available < t.required) {
      errors.push(`Task ${t.taskId}: the pool has ${t.available} active item(s), but each participant needs ${t.required} different ones.`);
    }
  }
  const capacityParticipants = perTask.length
    ? Math.min(...perTask.map((t) => Math.floor(t.supplyAnswers / input.itemsPerTask)))
    : 0;
  if (errors.length === 0) {
    if (input.maxParticipants === null) {
      warnings.push(`No participant cap is set: about ${capacityParticipants} participant(s) can be served before some task's items all reach k = ${input.answersPerItem} answers.`);
    } else {
      for (const t of perTask) {
        if (t.demandAnswers !== null && t.supplyAnswers < t.demandAnswers) {
          warnings.push(
            `Task ${t.taskId}: ${t.available} items × k ${input.answersPerItem} = ${t.supplyAnswers} answers, less than the expected demand of ${input.maxParticipants} participants × ${input.itemsPerTask} = ${t.demandAnswers}; only about ${Math.floor(t.supplyAnswers / input.itemsPerTask)} participants can be served.`,
          );
        }
      }
    }
  }
  return { errors, warnings, perTask, capacityParticipants };
}
