/**
 * The tasks whose questions this tab has displayed to the participant (sessionStorage, per participant): after a
 * reload their instructions (and the H-bond primer) are not shown again. A timed study also knows it from the
 * server's "shown" stamp (CurrentQuestion.alreadyShown); an untimed one sends no /shown (#31), so the browser keeps it.
 */
const keyOf = (participantId: string) => `misi.displayedTasks.${participantId}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: a reload shows the instructions again, nothing else changes
  }
}

/** The stored list as its raw string ("" when none): a stable snapshot for useSyncExternalStore. */
export function displayedTasksSnapshot(participantId: string): string {
  try {
    return storage()?.getItem(keyOf(participantId)) ?? "";
  } catch {
    return "";
  }
}

export function parseDisplayedTasks(snapshot: string): string[] {
  try {
    const list: unknown = snapshot ? JSON.parse(snapshot) : [];
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

export function markTaskDisplayed(participantId: string, taskId: string): void {
  const tasks = parseDisplayedTasks(displayedTasksSnapshot(participantId));
  if (tasks.includes(taskId)) return;
  try {
    storage()?.setItem(keyOf(participantId), JSON.stringify([...tasks, taskId]));
  } catch {
    // quota or blocked storage: as above
  }
}
