import { dockingTask } from "./docking";
import { interactionLocationTask } from "./interaction-location";
import { pocketLigandTask } from "./pocket-ligand";
import { residueLigandTask } from "./residue-ligand";
import { rotationTask } from "./rotation";
import { rotationRotationTask } from "./rotation-rotation";
import { translationTask } from "./translation";
import { translationRotationTask } from "./translation-rotation";
import { TASK_IDS, TaskIdSchema, type TaskId } from "./types";
import { zoomingTask } from "./zooming";

export { TASK_IDS, TaskIdSchema, type TaskId };

/** Every task module, keyed by its stable id. */
export const TASKS = {
  translation: translationTask,
  rotation: rotationTask,
  zooming: zoomingTask,
  residue_ligand: residueLigandTask,
  translation_rotation: translationRotationTask,
  rotation_rotation: rotationRotationTask,
  docking: dockingTask,
  interaction_location: interactionLocationTask,
  pocket_ligand: pocketLigandTask,
} as const satisfies { [Id in TaskId]: { id: Id } };

export type TaskFor<Id extends TaskId> = (typeof TASKS)[Id];
/** Any task; use its type-erased members (gradeText, renderStoredQuestion) or narrow on `id`. */
export type AnyTask = TaskFor<TaskId>;

/** All tasks in T1..T9 order. */
export function listTasks(): AnyTask[] {
  return TASK_IDS.map((id) => TASKS[id]);
}

/** Validates an untrusted task id (route param, DB column, CSV cell). */
export function parseTaskId(raw: unknown): { ok: true; id: TaskId } | { ok: false; error: string } {
  const parsed = TaskIdSchema.safeParse(raw);
  if (parsed.success) return { ok: true, id: parsed.data };
  const shown = typeof raw === "string" ? `'${raw}'` : `a ${raw === null ? "null" : typeof raw}`;
  return { ok: false, error: `unknown task id ${shown}: expected one of ${TASK_IDS.join(", ")}` };
}

/** The task with this id, or undefined for an unknown id. */
export function findTask<Id extends TaskId>(id: Id): TaskFor<Id>;
export function findTask(id: unknown): AnyTask | undefined;
export function findTask(id: unknown): AnyTask | undefined {
  const parsed = parseTaskId(id);
  return parsed.ok ? TASKS[parsed.id] : undefined;
}

/** The task with this id; throws a clear error for an unknown id. */
export function getTask<Id extends TaskId>(id: Id): TaskFor<Id>;
export function getTask(id: unknown): AnyTask;
export function getTask(id: unknown): AnyTask {
  const parsed = parseTaskId(id);
  if (!parsed.ok) throw new Error(parsed.error);
  return TASKS[parsed.id];
}
