import { z } from "zod";
import { MULTIPLE_CHOICE_TASK_IDS, RESULT_TASK_IDS, type ResultTaskId } from "./task-columns";

/** One scored human response, the plain shape the results code consumes (one row of the export). */
export const ResponseRecordSchema = z.object({
  participantId: z.string().min(1),
  itemId: z.string().min(1),
  taskId: z.enum(RESULT_TASK_IDS),
  /** 1 if the canonical answer equals the gold answer (spec §4). */
  exact: z.union([z.literal(0), z.literal(1)]),
  /** Partial credit in [0, 1] (spec §4). */
  partial: z.number().min(0).max(1),
  /** Study condition, e.g. "static" or "interactive". */
  condition: z.string().min(1),
  /** Participant cohort, e.g. "biology-phd". */
  cohort: z.string().min(1),
  /** T4 only: whether the item has bonds (Pos.) or not (Neg.). */
  t4Polarity: z.enum(["pos", "neg"]).optional(),
  /** Canonical answer text (an MC letter, a canonical command), for answer distributions. */
  answer: z.string().optional(),
  /**
   * The fair score (lib/tasks/fair-score.ts): equivalent atom names count as one. Omitted where it
   * equals the paper score (then exact/partial are used).
   */
  fairExact: z.union([z.literal(0), z.literal(1)]).optional(),
  fairPartial: z.number().min(0).max(1).optional(),
  /** F1 of the answered H-bond set (T4, T9 only). */
  fairF1: z.number().min(0).max(1).optional(),
  /**
   * The answer space the item's key was drawn from (lib/tasks/chance.ts), for the chance level; omitted: the spec's
   * range (as for items imported from the MiSI release).
   */
  keyAnswerSpace: z.object({ size: z.number().int().positive().nullable(), basis: z.string() }).optional(),
});
export type ResponseRecord = z.infer<typeof ResponseRecordSchema>;

/** One scored model answer on an item, for the item-matched comparison. */
export const ModelResponseRecordSchema = z.object({
  modelId: z.string().min(1),
  itemId: z.string().min(1),
  taskId: z.enum(RESULT_TASK_IDS),
  exact: z.union([z.literal(0), z.literal(1)]),
  partial: z.number().min(0).max(1),
  t4Polarity: z.enum(["pos", "neg"]).optional(),
  answer: z.string().optional(),
  /** The fair score of the model's answer (as for human responses); omitted where fair equals paper. */
  fairExact: z.union([z.literal(0), z.literal(1)]).optional(),
  fairPartial: z.number().min(0).max(1).optional(),
  fairF1: z.number().min(0).max(1).optional(),
});
export type ModelResponseRecord = z.infer<typeof ModelResponseRecordSchema>;

/** A problem with one input record: where it is and why it is rejected. */
export interface RecordIssue {
  /** Which input: "human" responses or "model" responses. */
  source: "human" | "model";
  /** 0-based position in the input array. */
  index: number;
  field: string;
  reason: string;
}

export type RecordsOutcome<T> = { ok: true; value: T } | { ok: false; issues: RecordIssue[] };

// More issues than this are summarised: a page of 10 000 identical errors helps no one.
const MAX_REPORTED_ISSUES = 50;

const MC_LETTER = /^[A-D]$/;

// Tasks whose partial credit is by definition the exact score (spec §4).
const PARTIAL_EQUALS_EXACT: ReadonlySet<ResultTaskId> = new Set<ResultTaskId>([...MULTIPLE_CHOICE_TASK_IDS, "zooming"]);

interface ItemIdentity {
  taskId: ResultTaskId;
  t4Polarity: "pos" | "neg" | undefined;
  index: number;
  source: "human" | "model";
}

type Scored = {
  itemId: string;
  taskId: ResultTaskId;
  exact: 0 | 1;
  partial: number;
  t4Polarity?: "pos" | "neg";
  answer?: string;
};

/** Checks every record must pass on its own beyond its zod shape. */
function checkScoredRecord(r: Scored, index: number, source: "human" | "model", issues: RecordIssue[]): void {
  if (r.taskId === "residue_ligand" && r.t4Polarity === undefined) {
    issues.push({
      source,
      index,
      field: "t4Polarity",
      reason: `residue_ligand item ${r.itemId} needs t4Polarity "pos" or "neg"`,
    });
  }
  if (r.taskId !== "residue_ligand" && r.t4Polarity !== undefined) {
    issues.push({
      source,
      index,
      field: "t4Polarity",
      reason: `only residue_ligand items have a polarity; item ${r.itemId} is ${r.taskId}`,
    });
  }
  if (r.exact === 1 && r.partial !== 1) {
    issues.push({
      source,
      index,
      field: "partial",
      reason: `an exactly correct answer must have partial = 1, got ${r.partial}`,
    });
  }
  if (PARTIAL_EQUALS_EXACT.has(r.taskId) && r.partial !== r.exact) {
    issues.push({
      source,
      index,
      field: "partial",
      reason: `${r.taskId} has no partial credit: partial must equal exact (${r.exact}), got ${r.partial}`,
    });
  }
  if (r.answer !== undefined && MULTIPLE_CHOICE_TASK_IDS.includes(r.taskId) && !MC_LETTER.test(r.answer)) {
    issues.push({
      source,
      index,
      field: "answer",
      reason: `multiple-choice answer must be one letter A–D, got ${JSON.stringify(r.answer)}`,
    });
  }
}

/** An item id must always name the same task and T4 polarity, across humans and models. */
function checkItemIdentity(
  r: Scored,
  index: number,
  source: "human" | "model",
  seen: Map<string, ItemIdentity>,
  issues: RecordIssue[],
): void {
  const first = seen.get(r.itemId);
  if (first === undefined) {
    seen.set(r.itemId, { taskId: r.taskId, t4Polarity: r.t4Polarity, index, source });
    return;
  }
  if (first.taskId !== r.taskId || first.t4Polarity !== r.t4Polarity) {
    issues.push({
      source,
      index,
      field: first.taskId !== r.taskId ? "taskId" : "t4Polarity",
      reason: `item ${r.itemId} is ${r.taskId}${r.t4Polarity ? `/${r.t4Polarity}` : ""} here but ${first.taskId}${first.t4Polarity ? `/${first.t4Polarity}` : ""} in ${first.source} record ${first.index}`,
    });
  }
}

function capIssues(issues: RecordIssue[]): RecordIssue[] {
  if (issues.length <= MAX_REPORTED_ISSUES) return issues;
  const first = issues[0] as RecordIssue;
  return [
    ...issues.slice(0, MAX_REPORTED_ISSUES),
    {
      source: first.source,
      index: -1,
      field: "*",
      reason: `${issues.length - MAX_REPORTED_ISSUES} more issues not shown`,
    },
  ];
}

function parseArray<T>(input: unknown, schema: z.ZodType<T>, source: "human" | "model", issues: RecordIssue[]): T[] {
  if (!Array.isArray(input)) {
    issues.push({
      source,
      index: -1,
      field: "*",
      reason: `expected an array of ${source} response records, got ${input === null ? "null" : typeof input}`,
    });
    return [];
  }
  const out: T[] = [];
  input.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) {
      out.push(parsed.data);
      return;
    }
    for (const issue of parsed.error.issues) {
      issues.push({ source, index, field: issue.path.join(".") || "*", reason: issue.message });
    }
  });
  return out;
}

function validateHuman(input: unknown, seenItems: Map<string, ItemIdentity>, issues: RecordIssue[]): ResponseRecord[] {
  const records = parseArray(input, ResponseRecordSchema, "human", issues);
  if (issues.length > 0) return records;
  const seenResponses = new Map<string, number>();
  records.forEach((r, index) => {
    checkScoredRecord(r, index, "human", issues);
    checkItemIdentity(r, index, "human", seenItems, issues);
    // One answer per participant, item and condition: a repeat would be counted twice.
    const key = JSON.stringify([r.participantId, r.itemId, r.condition]);
    const previous = seenResponses.get(key);
    if (previous !== undefined) {
      issues.push({
        source: "human",
        index,
        field: "itemId",
        reason: `participant ${r.participantId} already answered item ${r.itemId} in condition ${r.condition} (record ${previous})`,
      });
    } else {
      seenResponses.set(key, index);
    }
  });
  return records;
}

/** Parses and cross-checks human response records; every problem is reported with its record index and field. */
export function parseResponseRecords(input: unknown): RecordsOutcome<ResponseRecord[]> {
  const issues: RecordIssue[] = [];
  const records = validateHuman(input, new Map(), issues);
  return issues.length > 0 ? { ok: false, issues: capIssues(issues) } : { ok: true, value: records };
}

/**
 * Parses human and model records together, so an item id must mean the same task (and T4 polarity)
 * in both; a model may answer an item only once.
 */
export function parseHumanAndModelRecords(
  humanInput: unknown,
  modelInput: unknown,
): RecordsOutcome<{ human: ResponseRecord[]; model: ModelResponseRecord[] }> {
  const issues: RecordIssue[] = [];
  const seenItems = new Map<string, ItemIdentity>();
  const human = validateHuman(humanInput, seenItems, issues);
  const model = parseArray(modelInput, ModelResponseRecordSchema, "model", issues);
  if (issues.length === 0) {
    const seenAnswers = new Map<string, number>();
    model.forEach((r, index) => {
      checkScoredRecord(r, index, "model", issues);
      checkItemIdentity(r, index, "model", seenItems, issues);
      const key = JSON.stringify([r.modelId, r.itemId]);
      const previous = seenAnswers.get(key);
      if (previous !== undefined) {
        issues.push({
          source: "model",
          index,
          field: "itemId",
          reason: `model ${r.modelId} already answered item ${r.itemId} (record ${previous})`,
        });
      } else {
        seenAnswers.set(key, index);
      }
    });
  }
  return issues.length > 0 ? { ok: false, issues: capIssues(issues) } : { ok: true, value: { human, model } };
}
