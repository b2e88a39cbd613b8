import { TASK_IDS, type TaskCode, type TaskId } from "./types";

/**
 * Code and label of each task as a person reads them ("T1 Translation"). Kept as plain data so
 * client components can show names without importing the task modules; a unit test checks it
 * against the registry's `code` and `label`.
 */
export const TASK_DISPLAY: Readonly<Record<TaskId, { code: TaskCode; label: string }>> = {
  translation: { code: "T1", label: "Translation" },
  rotation: { code: "T2", label: "Rotation" },
  zooming: { code: "T3", label: "Zooming" },
  residue_ligand: { code: "T4", label: "Residue–ligand interaction" },
  translation_rotation: { code: "T5", label: "Translation + rotation" },
  rotation_rotation: { code: "T6", label: "Rotation + rotation" },
  docking: { code: "T7", label: "Ligand docking" },
  interaction_location: { code: "T8", label: "Interaction location" },
  pocket_ligand: { code: "T9", label: "Pocket–ligand interaction" },
};

/** "T1 Translation" for a known task id; an unknown id is shown as it is (never hidden). */
export function taskDisplayName(taskId: string): string {
  const d = (TASK_DISPLAY as Record<string, { code: string; label: string } | undefined>)[taskId];
  return d ? `${d.code} ${d.label}` : taskId;
}

/** Task ids in T1..T9 order with their display names (for selects and legends). */
export function listTaskDisplayNames(): { id: TaskId; name: string }[] {
  return TASK_IDS.map((id) => ({ id, name: taskDisplayName(id) }));
}
