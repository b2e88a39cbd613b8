import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

/**
 * Task names as they may appear in a `task`/`category` value or in folder and file names of the
 * MiSI-Bench release. Composite names come first: "translation_rotation" contains "translation".
 * `contains` patterns match inside the text with separators removed; `tokens` must be a whole
 * word (so "t1" matches "T1_translation" but not "test1").
 */
const TASK_PATTERNS: ReadonlyArray<{ id: TaskId; contains: readonly string[]; tokens: readonly string[] }> = [
  { id: "translation_rotation", contains: ["translationrotation", "transrot"], tokens: ["t5"] },
  { id: "rotation_rotation", contains: ["rotationrotation", "rotrot"], tokens: ["t6"] },
  { id: "residue_ligand", contains: ["residueligand", "reslig"], tokens: ["t4"] },
  { id: "pocket_ligand", contains: ["pocketligand", "poclig"], tokens: ["t9"] },
  { id: "interaction_location", contains: ["interactionlocation", "interloc"], tokens: ["t8"] },
  { id: "docking", contains: ["docking"], tokens: ["t7", "dock"] },
  { id: "zooming", contains: ["zoom"], tokens: ["t3"] },
  { id: "translation", contains: ["translation"], tokens: ["t1", "trans"] },
  { id: "rotation", contains: ["rotation"], tokens: ["t2", "rot"] },
];

/** The task a name refers to ("Translation", "T5 TransRot", "residue-ligand interaction"), or null. */
export function inferTaskFromName(text: string): TaskId | null {
  const squashed = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (squashed === "") return null;
  const tokens = new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
  for (const pattern of TASK_PATTERNS) {
    if (pattern.contains.some((c) => squashed.includes(c))) return pattern.id;
    if (pattern.tokens.some((t) => tokens.has(t))) return pattern.id;
  }
  return null;
}

/**
 * The task a file belongs to by its path: the file name (without extension) first, then each
 * enclosing folder outwards, so `misi/T2_rotation/rotation_rotation.jsonl` is rotation_rotation.
 */
export function inferTaskFromPath(filePath: string): TaskId | null {
  const segments = filePath.split("/").filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = i === segments.length - 1 ? segments[i]!.replace(/\.[^.]*$/, "") : segments[i]!;
    const id = inferTaskFromName(segment);
    if (id) return id;
  }
  return null;
}

/** "all", "t1,t5", "translation,docking" → task ids, or the unknown part. */
export function parseTaskList(raw: string): { ok: true; tasks: TaskId[] } | { ok: false; error: string } {
  if (raw.trim() === "all") return { ok: true, tasks: [...TASK_IDS] };
  const tasks: TaskId[] = [];
  for (const part of raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    const code = /^t([1-9])$/.exec(part);
    const id = code ? TASK_IDS[Number(code[1]) - 1] : TASK_IDS.find((t) => t === part);
    if (!id) return { ok: false, error: `unknown task '${part}': use all, t1..t9, or ids (${TASK_IDS.join(", ")})` };
    if (!tasks.includes(id)) tasks.push(id);
  }
  return tasks.length ? { ok: true, tasks } : { ok: false, error: "no task given" };
}
