/**
 * Field-name mapping for records of unknown layout (the MiSI-Bench release, VLMEvalKit TSVs).
 * Names are compared case-insensitively and without separators, so `Question_ID`, `questionId`
 * and `question id` are the same name.
 */

export type RecordRole = "id" | "question" | "answer" | "images" | "pdb" | "task" | "split" | "options" | "hint";

/** Accepted names per role, most specific first: when a record has several, the first one wins. */
export const FIELD_ALIASES: Readonly<Record<RecordRole, readonly string[]>> = {
  id: ["questionid", "id", "index", "qid", "uid", "itemid"],
  question: ["question", "prompt", "problem", "query"],
  answer: ["answer", "gt", "label", "gold", "groundtruth", "gtanswer", "correctanswer"],
  images: ["images", "image", "imagepaths", "imagepath", "imagefiles", "imagefile", "img", "imgpath"],
  pdb: ["pdbid", "pdb", "pdbcode"],
  task: ["task", "category", "tasktype", "taskname"],
  split: ["split"],
  options: ["options", "choices", "candidates"],
  hint: ["hint"],
};

/** Single-letter option columns (VLMEvalKit MC layout). */
export const OPTION_LETTER_KEYS = ["a", "b", "c", "d"] as const;

export function normalizeFieldName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export interface FieldMapping {
  /** Original key name per role. */
  roles: Partial<Record<RecordRole, string>>;
  /** Original keys of the A–D option columns, when all four are present. */
  optionLetterKeys: [string, string, string, string] | null;
  /** Keys that map to a role already taken by a more specific name: `[used, ignored]`. */
  shadowed: Array<{ role: RecordRole; used: string; ignored: string }>;
  /** Keys no role accepts. */
  unmapped: string[];
}

const ROLE_OF = new Map<string, { role: RecordRole; rank: number }>();
for (const [role, names] of Object.entries(FIELD_ALIASES) as Array<[RecordRole, readonly string[]]>) {
  names.forEach((name, rank) => ROLE_OF.set(name, { role, rank }));
}

/** Maps a record's (or a header's) keys to roles. Deterministic: depends only on the set of keys. */
export function mapFieldNames(keys: readonly string[]): FieldMapping {
  const best = new Map<RecordRole, { key: string; rank: number }>();
  const candidates = new Map<RecordRole, string[]>();
  const letters = new Map<string, string>();
  const unmapped: string[] = [];
  for (const key of keys) {
    const norm = normalizeFieldName(key);
    const hit = ROLE_OF.get(norm);
    if (hit) {
      candidates.set(hit.role, [...(candidates.get(hit.role) ?? []), key]);
      const current = best.get(hit.role);
      if (!current || hit.rank < current.rank) best.set(hit.role, { key, rank: hit.rank });
      continue;
    }
    if ((OPTION_LETTER_KEYS as readonly string[]).includes(norm) && key.trim().length === 1) {
      letters.set(norm, key);
      continue;
    }
    unmapped.push(key);
  }
  const roles: Partial<Record<RecordRole, string>> = {};
  const shadowed: FieldMapping["shadowed"] = [];
  for (const [role, { key }] of best) {
    roles[role] = key;
    for (const other of candidates.get(role) ?? [])
      if (other !== key) shadowed.push({ role, used: key, ignored: other });
  }
  const optionLetterKeys = OPTION_LETTER_KEYS.every((l) => letters.has(l))
    ? (OPTION_LETTER_KEYS.map((l) => letters.get(l)!) as [string, string, string, string])
    : null;
  // Fewer than four letter columns are not an MC layout: report them like any other unknown key.
  if (!optionLetterKeys) unmapped.push(...letters.values());
  return { roles, optionLetterKeys, shadowed, unmapped };
}
