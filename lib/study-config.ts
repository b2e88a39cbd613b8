import { setBounded } from "@/lib/bounded-map";
import { z } from "zod";
import { TASK_IDS, TaskIdSchema } from "@/lib/tasks/types";
import { isSafeHttpUrl } from "@/lib/safe-url";
import { ExclusionPolicySchema } from "@/lib/participant/integrity";

/** Study conditions: the paper's static images, or an interactive 3D view (static images stay available where useful). */
export const CONDITIONS = ["static", "interactive"] as const;
export const ConditionSchema = z.enum(CONDITIONS);
export type Condition = z.infer<typeof ConditionSchema>;

/** Replaced by the study's estimated duration when the consent text is shown (see consentTextFor). */
export const DURATION_PLACEHOLDER = "{duration}";

export const DEFAULT_CONSENT_TEXT = `You are invited to take part in a research study on how people reason about the 3D structure of molecules.

You will answer questions about pictures of protein–ligand complexes. It takes about ${DURATION_PLACEHOLDER}.

Taking part is voluntary; you may stop at any time. We record your answers, response times, how you interact with the views and basic device information (screen size, browser). No name or contact details are collected.

Anonymised data may be published for research.`;

/** A link the participant's browser is sent to: http(s) only (javascript:/data: would run in the app's origin). */
export const HttpUrlSchema = z
  .string()
  .max(2_000)
  .refine(isSafeHttpUrl, { message: "must be an absolute https:// (or http://) URL" });

const ProlificSchema = z.object({
  /** Query parameter names of the external participant, study and session ids. */
  participantParam: z.string().min(1).max(64).default("PROLIFIC_PID"),
  studyParam: z.string().min(1).max(64).default("STUDY_ID"),
  sessionParam: z.string().min(1).max(64).default("SESSION_ID"),
  /** Shown on completion; the participant is redirected to completionUrl after the last answer is stored. */
  completionCode: z.string().max(64).optional(),
  completionUrl: HttpUrlSchema.optional(),
  /** Where a participant who declines consent or is screened out is sent back to. */
  returnUrl: HttpUrlSchema.optional(),
});

const InteractiveSchema = z.object({
  allowRotate: z.boolean().default(true),
  allowZoom: z.boolean().default(true),
});

/** A study's configuration (Study.config), validated on every write and read. */
export const StudyConfigSchema = z
  .object({
    tasks: z
      .array(TaskIdSchema)
      .min(1)
      .default([...TASK_IDS]),
    /** Main-block items per task per participant. */
    itemsPerTask: z.number().int().min(1).max(200).default(5),
    /** Target answers per item across participants (k); no item is assigned beyond it. */
    answersPerItem: z.number().int().min(1).max(1000).default(3),
    /** Conditions counterbalanced between participants (one entry: everyone gets it). */
    conditions: z.array(ConditionSchema).min(1).default(["static"]),
    /** Per-task interactive-view permissions (interactive condition only). */
    interactive: z.partialRecord(TaskIdSchema, InteractiveSchema).default({}),
    /** Practice items (with feedback, never scored into results). */
    practiceItemIds: z.array(z.string().min(1)).default([]),
    /** Attention-check items with unambiguous answers, mixed into the main block. */
    attentionItemIds: z.array(z.string().min(1)).default([]),
    attentionPolicy: z.enum(["flag", "screen_out"]).default("flag"),
    /** Failed checks tolerated before the policy applies. */
    attentionMaxFailures: z.number().int().min(0).default(0),
    /** Optional per-item time limit; the answer is still stored (as timed out) when it runs out. */
    timeLimitSec: z.number().int().min(5).max(3600).nullable().default(null),
    /** An unanswered assignment older than this is reclaimed for other participants. */
    assignmentTimeoutMin: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    maxParticipants: z.number().int().min(1).nullable().default(null),
    consentText: z.string().min(1).max(20_000).default(DEFAULT_CONSENT_TEXT),
    declineMessage: z
      .string()
      .min(1)
      .max(2_000)
      .default("Thank you. You have declined to take part; please return the study on Prolific (or close this page)."),
    prolific: ProlificSchema.default(ProlificSchema.parse({})),
    cohortTag: z.string().max(64).nullable().default(null),
    /** Show the illustrated hydrogen-bond primer before the first H-bond task (T4, T7, T8, T9); recorded per participant. */
    hbondPrimer: z.boolean().default(false),
    /**
     * Devices taken: "desktop" (screen ≥ 1024 px, not a touch-first device), "any", or "auto": desktop when the study
     * has a task whose answers name labelled atoms (lib/participant/device-rule.ts). Others are screened out before
     * consent with a message to return the study (prolific.returnUrl when set).
     */
    deviceRule: z.enum(["auto", "desktop", "any"]).default("auto"),
    /** Which integrity signals exclude a participant from the results' "with exclusions" figures (default: none). */
    exclusions: ExclusionPolicySchema.default(ExclusionPolicySchema.parse({})),
  })
  .superRefine((cfg, ctx) => {
    const overlap = cfg.practiceItemIds.filter((id) => cfg.attentionItemIds.includes(id));
    if (overlap.length)
      ctx.addIssue({
        code: "custom",
        path: ["attentionItemIds"],
        message: `items used both as practice and attention checks: ${overlap.join(", ")}`,
      });
    if (new Set(cfg.conditions).size !== cfg.conditions.length)
      ctx.addIssue({ code: "custom", path: ["conditions"], message: "a condition is listed twice" });
    // The start reserves itemsPerTask items per listed task: a task listed twice would reserve one item for both.
    if (new Set(cfg.tasks).size !== cfg.tasks.length)
      ctx.addIssue({ code: "custom", path: ["tasks"], message: "a task is listed twice" });
  });

export type StudyConfig = z.output<typeof StudyConfigSchema>;
export type StudyConfigInput = z.input<typeof StudyConfigSchema>;

/** Interactive permissions for one task, with defaults. */
export function interactiveFor(config: StudyConfig, taskId: z.infer<typeof TaskIdSchema>) {
  return config.interactive[taskId] ?? InteractiveSchema.parse({});
}

/** Seconds per question used for the duration estimate before real data exist (low and high end). */
const SECONDS_PER_ITEM = [45, 90] as const;
/** Consent, instructions (one screen per task) and the completion screen. */
const OVERHEAD_SECONDS = 120;
const SECONDS_PER_TASK_INSTRUCTIONS = 30;

/** Questions one participant answers: practice, main block and attention checks. */
export function itemsPerParticipant(config: StudyConfig): number {
  return config.practiceItemIds.length + config.tasks.length * config.itemsPerTask + config.attentionItemIds.length;
}

function roundMinutes(seconds: number, up: boolean): number {
  const minutes = seconds / 60;
  if (minutes <= 10) return Math.max(1, up ? Math.ceil(minutes) : Math.floor(minutes));
  return Math.max(5, (up ? Math.ceil(minutes / 5) : Math.floor(minutes / 5)) * 5);
}

/**
 * The study's expected duration in words, from its length (items per participant × 45–90 s, capped by the time
 * limit, plus instructions), or from the median duration of finished participants once `medianSeconds` is known.
 */
export function estimateDuration(config: StudyConfig, medianSeconds: number | null = null): string {
  if (medianSeconds !== null && Number.isFinite(medianSeconds) && medianSeconds > 0) {
    const m = roundMinutes(medianSeconds, true);
    return `${m} minute${m === 1 ? "" : "s"} (the median of the participants so far)`;
  }
  const items = itemsPerParticipant(config);
  const fixed = OVERHEAD_SECONDS + SECONDS_PER_TASK_INSTRUCTIONS * config.tasks.length;
  const perItemHigh =
    config.timeLimitSec === null ? SECONDS_PER_ITEM[1] : Math.min(SECONDS_PER_ITEM[1], config.timeLimitSec);
  const perItemLow = Math.min(SECONDS_PER_ITEM[0], perItemHigh);
  const low = roundMinutes(fixed + items * perItemLow, false);
  const high = Math.max(low, roundMinutes(fixed + items * perItemHigh, true));
  return low === high ? `${low} minutes` : `${low}–${high} minutes`;
}

/** The consent text as shown: the duration placeholder filled in. */
export function consentTextFor(config: StudyConfig, medianSeconds: number | null = null): string {
  return config.consentText.includes(DURATION_PLACEHOLDER)
    ? config.consentText.split(DURATION_PLACEHOLDER).join(estimateDuration(config, medianSeconds))
    : config.consentText;
}

/**
 * Parsed stored configs by their JSON text. The participant routes parse the study's stored config on every request
 * (an answer's costs tens of µs in a busy process); a study has one config at a time, so the result is kept, frozen
 * (callers share it), at most MAX_PARSED_CONFIGS of them.
 */
const parsedConfigs = new Map<string, Readonly<StudyConfig>>();
const MAX_PARSED_CONFIGS = 256;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** StudyConfigSchema.parse of a config as stored (Study.config), remembered by its JSON text; the result is frozen. */
export function parseStoredStudyConfig(stored: unknown): Readonly<StudyConfig> {
  // A jsonb number beyond a double (1e400) reads as Infinity, which JSON.stringify writes as null: kept apart.
  const key = JSON.stringify(stored ?? null, (_, v: unknown) =>
    typeof v === "number" && !Number.isFinite(v) ? `\u0000${v}` : v,
  );
  return parsedConfigs.get(key) ?? remember(key, stored);
}

/**
 * parseStoredStudyConfig of a config read as text (`config::text`), remembered by that text: a known config costs a
 * map lookup, neither the driver's JSON parse nor the serialisation that keys the other form (the answer's hot path).
 * Keyed apart from that form (a leading U+0001, which no JSON text has), so the two never stand for each other.
 */
export function parseStoredStudyConfigText(text: string): Readonly<StudyConfig> {
  const key = `\u0001${text}`;
  return parsedConfigs.get(key) ?? remember(key, JSON.parse(text) as unknown);
}

function remember(key: string, stored: unknown): Readonly<StudyConfig> {
  // A copy: the parse may return default values zod holds, which must not be frozen for other callers.
  const parsed = deepFreeze(structuredClone(StudyConfigSchema.parse(stored)));
  return setBounded(parsedConfigs, key, parsed, MAX_PARSED_CONFIGS);
}
