import { z } from "zod";

/** Task ids in the paper's order (T1..T9). Stable: stored in the DB and in CSV exports. */
export const TASK_IDS = [
  "translation",
  "rotation",
  "zooming",
  "residue_ligand",
  "translation_rotation",
  "rotation_rotation",
  "docking",
  "interaction_location",
  "pocket_ligand",
] as const;

export const TaskIdSchema = z.enum(TASK_IDS);
export type TaskId = z.infer<typeof TaskIdSchema>;

export type TaskCode = "T1" | "T2" | "T3" | "T4" | "T5" | "T6" | "T7" | "T8" | "T9";
export type TaskKind = "unit" | "composite";
export type TaskFormat = "cloze" | "mc";

/** Screen axes of the front view: x right, y up, z toward the viewer (spec §2). */
export type Axis = "x" | "y" | "z";
export const MC_LETTERS = ["A", "B", "C", "D"] as const;
export type McLetter = (typeof MC_LETTERS)[number];

/** Result of reading participant text: the value plus its canonical text, or a specific error. */
export type ParseResult<V> = { ok: true; value: V; canonical: string } | { ok: false; error: string };

/** Both scores of spec §4. exact is the paper's Table 2, partial its Table 1. */
export interface TaskScore {
  exact: 0 | 1;
  /** In [0, 1]. */
  partial: number;
}

/** What the participant UI needs to build an input for a task (no React here, just data). */
export type AnswerWidget =
  | { type: "mc"; letters: readonly McLetter[] }
  | {
      type: "command";
      verb: "move" | "roll";
      axes: readonly Axis[];
      min: number;
      max: number;
      step: number;
      unit: "Å" | "°";
    }
  | {
      type: "docking";
      rollAxes: readonly Axis[];
      rollMin: number;
      rollMax: number;
      rollStep: number;
      /** Always x: the ligand was displaced along x only (spec §3, T7). */
      moveAxis: "x";
      moveMin: number;
      moveMax: number;
      moveStep: number;
    }
  | {
      type: "hbond-list";
      /** T9 writes `<RES> <resnum> <atom> <chain>`, T4 only `<RES> <atom>`. */
      withResidueNumberAndChain: boolean;
      allowNo: boolean;
      /** T4 answers start with `Yes:` when they list bonds. */
      yesPrefix: boolean;
    };

/** One generated or imported item: the public per-item fields and the private gold answer. */
export interface TaskItem<Fields, Gold> {
  fields: Fields;
  gold: Gold;
}

/** Type-erased grading of stored data (raw text + gold JSON), for callers that hold any task. */
export type GradeResult =
  { ok: true; canonical: string; score: TaskScore } | { ok: false; stage: "answer" | "gold" | "params"; error: string };

/** Type-erased rendering of stored fields JSON. */
export type RenderResult = { ok: true; text: string } | { ok: false; error: string };

/**
 * What a task module writes. `defineTask` adds the derived members of `TaskDefinition`.
 * The item generator (`generate`) and render hints come in a later issue as additional members;
 * nothing here depends on them.
 */
export interface TaskSpec<Id extends TaskId, Answer, Gold, Fields, P extends z.ZodType<object>> {
  id: Id;
  code: TaskCode;
  /** Bump when grammar, scoring or generation semantics change; stored with every answer. */
  version: number;
  /** Participant-facing name. */
  label: string;
  kind: TaskKind;
  format: TaskFormat;
  /** Participant-facing instructions: what to do, conventions, exact answer format, one example. */
  instructions: string;
  /** The fixed per-task question text with `{field}` placeholders (spec §3: one template per task). */
  questionTemplate: string;
  /** zod for the public per-item fields (Item.payload); never contains the gold answer. */
  fieldsSchema: z.ZodType<Fields>;
  /** The question text for one item: the template with its fields filled. */
  renderQuestion(fields: Fields): string;
  answerWidget: AnswerWidget;
  /** zod with defaults: tunable knobs (value ranges, partial-credit widths). */
  params: P;
  /** zod for the stored JSON form of a parsed answer. */
  answerSchema: z.ZodType<Answer>;
  /** zod for the stored gold (AnswerKey.gold). */
  goldSchema: z.ZodType<Gold>;
  parseAnswer(text: string): ParseResult<Answer>;
  /**
   * Parses with the item's public fields at hand, where they decide between readings the text alone leaves open (T9:
   * which chains and atoms the item has). Absent: `parseAnswer`. Must accept whatever `parseAnswer` accepts for
   * answers that are valid for the item, so a canonical text parses the same with or without the item.
   */
  parseAnswerForItem?(text: string, fields: Fields): ParseResult<Answer>;
  canonicalize(value: Answer): string;
  /** The answer that scores exact 1 on this gold. */
  toCorrectAnswer(gold: Gold): Answer;
  score(answer: Answer, gold: Gold, params: z.output<P>): TaskScore;
  /** Cross-checks between fields and gold (e.g. T8 options shown vs. options in the key). */
  checkItem?(item: TaskItem<Fields, Gold>): string | undefined;
}

export interface TaskDefinition<Id extends TaskId, Answer, Gold, Fields, P extends z.ZodType<object>> extends Omit<
  TaskSpec<Id, Answer, Gold, Fields, P>,
  "score" | "checkItem"
> {
  /** Scores with the task's default params, or with overrides (validated; throws on invalid params). */
  score(answer: Answer, gold: Gold, params?: Partial<z.input<P>>): TaskScore;
  defaultParams: z.output<P>;
  /** zod for a whole item ({ fields, gold }), including cross-checks. */
  itemSchema: z.ZodType<TaskItem<Fields, Gold>>;
  /** Canonical text of the gold answer (AnswerKey.canonical). */
  canonicalizeGold(gold: Gold): string;
  /**
   * Parses an answer to one item: with its stored public fields (`parseAnswerForItem`) when they validate, else as
   * `parseAnswer`. What participant screens use, so a refusal can name the item's own chains and atoms.
   */
  parseAnswerFor(text: string, fields: unknown): ParseResult<Answer>;
  /** Parses raw text (with the item's stored fields when given), validates stored gold and params, and scores. Never throws. */
  gradeText(text: string, gold: unknown, params?: unknown, fields?: unknown): GradeResult;
  /** Validates stored fields and renders the question. Never throws. */
  renderStoredQuestion(fields: unknown): RenderResult;
}
