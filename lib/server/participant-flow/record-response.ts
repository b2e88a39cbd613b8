import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { setBounded } from "@/lib/bounded-map";
import { isTransientDbError, withDbRetry } from "@/lib/server/db-retry";
import { AppError } from "@/lib/server/errors";
import {
  endScreens,
  nextQuestionOf,
  type NextQuestionColumns,
  type SessionUpdateDto,
} from "@/lib/server/participant-flow/get-session";
import { flowQuery, flowTransaction, type FlowClient } from "@/lib/server/participant-flow/flow-sql";
import { dbPool } from "@/lib/server/db";
import { findTask } from "@/lib/tasks/registry";
import type { AnyTask } from "@/lib/tasks/registry";
import { parseStoredStudyConfigText, type StudyConfig } from "@/lib/study-config";
import { hasTimeLimitRunOut, isAnswerLate } from "@/lib/question-clock";
import type { AnswerSignals } from "@/lib/participant/integrity";
import { recordAnswerSignals, SIGNAL_TIME_SLACK_MS } from "@/lib/server/participant-flow/record-signals";

export interface RecordResponseOptions {
  participantId: string;
  assignmentId: string;
  /** The participant's study (their token's) and the question's item as the browser names it: with both, an answer
   * graded from what this process keeps is stored in one statement (submitDirect); either may be wrong or absent. */
  studyId?: string;
  itemId?: string;
  rawAnswer: string;
  idempotencyKey: string;
  rtClientMs?: number | null;
  interactionLog?: unknown;
  /** The per-item time limit ran out: stored as an unanswered (score 0) response without grammar validation. */
  timedOut?: boolean;
  /** The browser's integrity signals for this question: stored with the answer, or with a replay that finds none. */
  signals?: AnswerSignals;
}

/** What the participant may learn after submitting: never the score of a main item. */
export interface RecordResponseResult {
  status: "stored" | "duplicate";
  /** Practice items only: feedback with the correct answer. */
  practiceFeedback: { correct: boolean; correctAnswer: string } | null;
  /** Session ended after this answer (all answered, or screened out). */
  ended: "completed" | "screened_out" | null;
}

/** The answer's outcome plus what the browser needs next (progress, the next question, or the end screen). */
export interface SubmitAnswerOutcome {
  result: RecordResponseResult;
  update: SessionUpdateDto;
}

/** The outcome as the answer route gets it: also whether the study is timed (not sent to the browser). */
export interface SubmittedAnswer extends SubmitAnswerOutcome {
  /** The study has a time limit: its images are gated on the question's "shown" stamp, so none may be signed ahead. */
  timed: boolean;
}

/**
 * Scores an answer on the server and stores it before the participant may advance. A retried submit with the
 * same idempotency key returns the first result and stores nothing new, whatever state the assignment is in by then.
 */
export async function recordResponse(options: RecordResponseOptions): Promise<RecordResponseResult> {
  return (await submitAnswer(options)).result;
}

/**
 * The hot path is one statement (submit-write.sql) that checks the answer may be stored now, marks the assignment
 * answered, inserts the response, counts it, renews the participant's reservation, completes the session when it was
 * the last question and returns the next question; it commits on its own (no BEGIN/COMMIT). When this process already
 * knows the study's config and the item's answer key (submitDirect), nothing is read before it. Otherwise, and whenever
 * that statement stores nothing (a replay, a refusal, a race, a failed attention check, a stale memo), one read (the
 * assignment with its participant, study config, item, answer key and any stored response) decides first, as
 * submitRead does. Idempotent replay is decided on the stored response itself: a response with this key is replayed,
 * whatever happened to the assignment since. A transient database fault re-runs the whole submit, which the
 * idempotency key makes safe.
 */
export async function submitAnswer(options: RecordResponseOptions): Promise<SubmittedAnswer> {
  // PostgreSQL text and jsonb cannot hold U+0000: refuse it here with a located error instead of a failed insert (500).
  if (options.rawAnswer.includes("\u0000"))
    throw new AppError("UNPROCESSABLE", "The answer contains a NUL character.", { field: "answer" });
  if (containsNul(options.interactionLog)) {
    throw new AppError("UNPROCESSABLE", "The interaction log contains a NUL character.", { field: "interactionLog" });
  }
  const outcome = await withDbRetry(() => submitOnce(options));
  // A replay: the first attempt's write stored its own signals, unless that attempt came without them.
  if (outcome.result.status === "duplicate" && options.signals)
    await recordAnswerSignals({
      participantId: options.participantId,
      assignmentId: options.assignmentId,
      signals: options.signals,
    });
  return outcome;
}

interface SubmitRow {
  id: string;
  itemId: string;
  phase: "practice" | "main" | "attention";
  status: string;
  firstShownAt: Date | null;
  /** When the question itself was displayed (POST /api/participant/shown); the time limit counts from here. */
  questionShownAt: Date | null;
  participantStatus: string;
  condition: string;
  studyId: string;
  flags: unknown;
  /** Study.config as jsonb text. */
  config: string;
  taskId: string;
  taskVersion: number;
  gradingHash: string;
  gold: unknown;
  canonical: string | null;
  storedKey: string | null;
  storedExact: number | null;
  keyAssignmentId: string | null;
  /** An open question comes before this one: it is not the current question. */
  openBefore: boolean;
}

/** The question's own display (stamped after the instructions screen), else when it was first served. */
function shownAtOf(a: Pick<SubmitRow, "questionShownAt" | "firstShownAt">): Date | null {
  return a.questionShownAt ?? a.firstShownAt;
}

async function readSubmit(options: RecordResponseOptions): Promise<SubmitRow | undefined> {
  const [row] = await flowQuery<SubmitRow>("submit-read", [
    options.assignmentId,
    options.participantId,
    options.idempotencyKey,
  ]);
  return row;
}

/** Replay, refusal, or null: nothing is stored for this assignment and it may be answered now. */
async function decide(row: SubmitRow | undefined, options: RecordResponseOptions): Promise<SubmittedAnswer | null> {
  if (!row) throw new AppError("NOT_FOUND", "This question is not part of your session.");
  if (row.keyAssignmentId !== null && row.keyAssignmentId !== row.id) {
    throw new AppError("CONFLICT", "This submission key was already used for another question.");
  }
  if (row.storedKey !== null) {
    if (row.storedKey !== options.idempotencyKey) throw new AppError("CONFLICT", "This question was already answered.");
    const config = parseStoredStudyConfigText(row.config);
    return {
      result: {
        status: "duplicate",
        practiceFeedback:
          row.phase === "practice" ? { correct: row.storedExact === 1, correctAnswer: row.canonical ?? "" } : null,
        ended: endedOf(row.participantStatus),
      },
      update: await readUpdate(options.participantId, row.condition, config),
      timed: config.timeLimitSec !== null,
    };
  }
  if (row.participantStatus !== "active")
    throw new AppError("GONE", "Your session has ended; answers can no longer be changed.");
  if (row.status === "answered") throw new AppError("CONFLICT", "This question was already answered.");
  if (row.status !== "assigned") throw new AppError("GONE", "This question was released after a long inactivity.");
  // Only the current question (the first open one, as the session defines it) can be answered: a later question's clock
  // has not started (no shown stamp), so an answer to it would be stored as in time however long it was studied.
  if (row.openBefore) throw new AppError("CONFLICT", "This is not your current question.");
  return null;
}

/** An attention check is passed by an exactly right answer; a failure is counted (recordAttentionFailure). */
function passesAttentionCheck(exact: number): boolean {
  return exact === 1;
}

function endedOf(status: string | null): RecordResponseResult["ended"] {
  return status === "completed" ? "completed" : status === "screened_out" ? "screened_out" : null;
}

async function submitOnce(options: RecordResponseOptions): Promise<SubmittedAnswer> {
  return (await submitDirect(options)) ?? (await submitRead(options));
}

/** What grading an item's answers needs, kept per process: an item's content and answer key never change. */
interface KnownItem {
  id: string;
  task: AnyTask;
  /** misi_grading_hash of the item as read: the write checks it still is. */
  gradingHash: string;
  gold: unknown;
  canonical: string | null;
  /** The item's public fields, kept only for a task that parses answers with them (T9). */
  fields: unknown;
}

/** A study's config as stored (frozen once anyone joined, lib/server/dal/studies/save-study.ts) and its text's md5. */
interface KnownStudy {
  config: Readonly<StudyConfig>;
  configMd5: string;
}

const MAX_KNOWN_ITEMS = 50_000;
const MAX_KNOWN_STUDIES = 1_000;
const knownItems = new Map<string, KnownItem>();
const knownStudies = new Map<string, KnownStudy>();

interface GradingRow {
  itemId: string;
  taskId: string;
  gradingHash: string;
  payload: unknown;
  gold: unknown;
  canonical: string | null;
  studyId: string;
  /** Study.config as jsonb text. */
  config: string;
}

/**
 * The item and study this answer is graded with: kept ones when the browser named the item (`itemId`), else read
 * once for the participant's own assignment (statements/grading-context.sql) and kept. Null: not the participant's.
 */
async function gradingContext(
  options: RecordResponseOptions & { studyId: string },
): Promise<{ item: KnownItem; study: KnownStudy } | null> {
  const item = options.itemId === undefined ? undefined : knownItems.get(options.itemId);
  const study = knownStudies.get(options.studyId);
  if (item && study) return { item, study };
  const [row] = await flowQuery<GradingRow>("grading-context", [options.assignmentId, options.participantId]);
  if (!row || row.studyId !== options.studyId) return null;
  const task = findTask(row.taskId);
  if (!task || row.gold === null || row.gold === undefined) return null; // submitRead says what is wrong
  const configMd5 = md5(row.config);
  return {
    item: setBounded(
      knownItems,
      row.itemId,
      {
        id: row.itemId,
        task,
        gradingHash: row.gradingHash,
        gold: row.gold,
        canonical: row.canonical,
        fields: task.parseAnswerForItem ? row.payload : undefined,
      },
      MAX_KNOWN_ITEMS,
    ),
    // The config just read, unless the kept one is the same text.
    study:
      study?.configMd5 === configMd5
        ? study
        : setBounded(
            knownStudies,
            row.studyId,
            { config: parseStoredStudyConfigText(row.config), configMd5 },
            MAX_KNOWN_STUDIES,
          ),
  };
}

/** Drops what this process keeps of the row's item and study when the database holds other content (the read is truth). */
function forgetStale(row: SubmitRow): void {
  const item = knownItems.get(row.itemId);
  if (item && item.gradingHash !== row.gradingHash) knownItems.delete(row.itemId);
  const study = knownStudies.get(row.studyId);
  if (study && study.configMd5 !== md5(row.config)) knownStudies.delete(row.studyId);
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

/**
 * An untimed study's answer graded from what this process keeps (gradingContext) and stored by the write alone, which
 * checks everything the read would have (submit-write.sql): one round trip once the item is known here, two the first
 * time. Null when it cannot be used or stored nothing: the caller then reads and decides (nothing was written). A timed
 * study's answers need the question's shown stamp before grading (lateness), an invalid answer's refusal must come after
 * the read's (a replay or a stale question says so first), and a failed attention check is recorded in a transaction:
 * all go the read way.
 */
async function submitDirect(options: RecordResponseOptions): Promise<SubmittedAnswer | null> {
  const studyId = options.studyId;
  if (options.timedOut || studyId === undefined || knownStudies.get(studyId)?.config.timeLimitSec != null) return null;
  let direct: Awaited<ReturnType<typeof writeDirect>>;
  try {
    direct = await writeDirect(options, studyId);
  } catch (err) {
    if (isTransientDbError(err)) throw err; // withDbRetry runs the whole submit again
    // Anything else (a unique key refused the insert: this key stored for another question; an item without a key)
    // is for the read to decide and say, after what it decides first (a replay, a session that ended).
    return null;
  }
  if (!direct) return null;
  const { written, study, item, exact } = direct;
  return storedOutcome(options.participantId, written, study.config, item.canonical, exact);
}

/** Grades with what is kept and writes; null when it cannot grade so or the write stored nothing. */
async function writeDirect(options: RecordResponseOptions, studyId: string) {
  const known = await gradingContext({ ...options, studyId });
  if (!known || known.study.config.timeLimitSec !== null) return null;
  const { item, study } = known;
  const graded = item.task.gradeText(options.rawAnswer, item.gold, undefined, item.fields);
  if (!graded.ok) return null;
  const now = new Date();
  const written = await writeAnswer({
    ...options,
    studyId,
    itemId: item.id,
    canonical: graded.canonical,
    exact: graded.score.exact,
    partial: graded.score.partial,
    late: false,
    now,
    timed: false,
    expiresAt: new Date(now.getTime() + study.config.assignmentTimeoutMin * 60_000),
    timedShownAt: null,
    storeAttention: passesAttentionCheck(graded.score.exact),
    known: { gradingHash: item.gradingHash, configMd5: study.configMd5 },
  });
  // Null: a replay, a refusal, or what is kept here is stale (submitRead decides, says why, and drops it).
  return written ? { written, study, item, exact: graded.score.exact } : null;
}

/** Read, decide, grade, write: the first answer to an item in this process, and every case submitDirect leaves. */
async function submitRead(options: RecordResponseOptions): Promise<SubmittedAnswer> {
  const row = await readSubmit(options);
  if (row) forgetStale(row);
  const decided = await decide(row, options);
  if (decided) return decided;
  const a = row!;

  const task = findTask(a.taskId);
  if (!task || a.gold === null || a.gold === undefined) throw new Error(`item ${a.itemId} has no task or answer key`);

  const config = parseStoredStudyConfigText(a.config);
  if (options.timedOut) {
    // Only a real time limit may end a question unanswered, and only once it has run out on the server's clock
    // (counted from the question's display, lib/question-clock; the browser's countdown runs on that clock too), so
    // "timed out" cannot be used to skip questions.
    if (config.timeLimitSec === null)
      throw new AppError("UNPROCESSABLE", "This study has no time limit.", { field: "timedOut" });
    const shownAt = shownAtOf(a);
    if (!shownAt || !hasTimeLimitRunOut(shownAt.getTime(), config.timeLimitSec, Date.now())) {
      throw new AppError("UNPROCESSABLE", "The time limit for this question has not run out yet.", {
        field: "timedOut",
      });
    }
  }

  let canonical = "";
  let exact = 0;
  let partial = 0;
  const now = new Date();
  // An answer that arrives past the server's limit (plus a grace for one in flight) is not lost and not counted as in
  // time: stored with its text and canonical form, flagged late, scored 0 as a time-out is (the codebook says so).
  const shownAt = shownAtOf(a);
  const late =
    !options.timedOut &&
    config.timeLimitSec !== null &&
    shownAt !== null &&
    isAnswerLate(shownAt.getTime(), config.timeLimitSec, now.getTime());
  if (!options.timedOut) {
    // A task whose reading depends on the item (T9: its chains and atoms) parses with the item's public fields, as the
    // question screen does, so the server never accepts a reading the screen refuses.
    const fields = task.parseAnswerForItem ? await itemFields(a.itemId) : undefined;
    const graded = task.gradeText(options.rawAnswer, a.gold, undefined, fields);
    if (!graded.ok) {
      if (graded.stage === "answer") throw new AppError("UNPROCESSABLE", graded.error, { field: "answer" });
      throw new Error(`item ${a.itemId}: stored ${graded.stage} is invalid: ${graded.error}`);
    }
    canonical = graded.canonical;
    exact = late ? 0 : graded.score.exact;
    partial = late ? 0 : graded.score.partial;
  }

  const write: AnswerWrite = {
    ...options,
    studyId: a.studyId,
    itemId: a.itemId,
    rawAnswer: options.timedOut ? "" : options.rawAnswer,
    canonical,
    exact,
    partial,
    late,
    now,
    timed: config.timeLimitSec !== null,
    timedShownAt: config.timeLimitSec !== null ? shownAt : null,
    expiresAt: new Date(now.getTime() + config.assignmentTimeoutMin * 60_000),
    storeAttention: true, // a failure is recorded below, in the same transaction
    known: null,
  };
  const attentionFailed = a.phase === "attention" && !passesAttentionCheck(exact);
  let written: WrittenAnswer | null;
  try {
    written = attentionFailed
      ? await flowTransaction(async (tx) => {
          const w = await writeAnswer(write, tx);
          if (w)
            w.participantStatus =
              (await recordAttentionFailure(tx, options.participantId, a, config, now)) ?? w.participantStatus;
          return w;
        })
      : await writeAnswer(write);
  } catch (err) {
    if (isTransientDbError(err)) throw err; // withDbRetry runs the whole submit again
    // A unique key refused the insert (this key stored for another question meanwhile): decide again on what is
    // stored now — a replay, or a refusal that says why.
    const again = await decide(await readSubmit(options), options);
    if (again) return again;
    throw err;
  }
  if (!written) {
    // The assignment was no longer open when the write ran: a concurrent submit (this key or another) or the reclaim
    // got there first. What is stored now decides: a replay of this key, or a refusal saying why.
    const again = await decide(await readSubmit(options), options);
    if (again) return again;
    throw new AppError("CONFLICT", "This question was already answered.");
  }

  return storedOutcome(options.participantId, written, config, a.canonical, exact);
}

/** The answer was stored: its feedback (practice only) and what the browser shows next. */
function storedOutcome(
  participantId: string,
  written: WrittenAnswer,
  config: Readonly<StudyConfig>,
  canonical: string | null,
  exact: number,
): SubmittedAnswer {
  const ended = endedOf(written.participantStatus);
  return {
    result: {
      status: "stored",
      practiceFeedback: written.phase === "practice" ? { correct: exact === 1, correctAnswer: canonical ?? "" } : null,
      ended,
    },
    update: toUpdate(
      participantId,
      written.participantStatus ?? "active",
      written.condition,
      config,
      ended ? null : written.next,
      written.progress,
    ),
    timed: config.timeLimitSec !== null,
  };
}

interface AnswerWrite extends RecordResponseOptions {
  studyId: string;
  itemId: string;
  canonical: string;
  exact: number;
  partial: number;
  late: boolean;
  now: Date;
  /** The study has a time limit, and the stamp its clock counted from (shownAtOf): the stored shown time. */
  timed: boolean;
  timedShownAt: Date | null;
  /** An attention check may be stored by the write alone: it passed, or the caller records the failure with it. */
  storeAttention: boolean;
  expiresAt: Date;
  /** What a write without a read graded with (checked by the statement); null when read in this request. */
  known: { gradingHash: string; configMd5: string } | null;
}

type NextRow = NextQuestionColumns;

interface WrittenAnswer {
  participantStatus: string | null;
  /** The answered assignment's phase and the participant's condition, as the write found them. */
  phase: string;
  condition: string;
  next: NextRow;
  progress: { answered: number; total: number; practiceTotal: number };
}

/** The single write statement (statements/submit-write.sql); null when it stored nothing (see its header). */
async function writeAnswer(w: AnswerWrite, client?: FlowClient): Promise<WrittenAnswer | null> {
  const log = w.interactionLog === undefined || w.interactionLog === null ? null : JSON.stringify(w.interactionLog);
  const [r] = await flowQuery<
    NextRow & {
      responseId: string | null;
      participantStatus: string | null;
      answeredPhase: string | null;
      condition: string | null;
    }
  >(
    "submit-write",
    [
      w.assignmentId,
      w.participantId,
      randomUUID(),
      w.studyId,
      w.itemId,
      w.rawAnswer,
      w.canonical,
      w.exact,
      w.partial,
      w.rtClientMs ?? null,
      w.timed,
      w.now.toISOString(),
      log,
      w.idempotencyKey,
      w.late,
      w.expiresAt.toISOString(),
      w.signals === undefined ? null : JSON.stringify(w.signals),
      SIGNAL_TIME_SLACK_MS,
      w.known?.gradingHash ?? null,
      w.known?.configMd5 ?? null,
      w.storeAttention,
      w.timedShownAt?.toISOString() ?? null,
    ],
    client,
  );
  if (!r || r.responseId === null) return null;
  return {
    participantStatus: r.participantStatus,
    phase: r.answeredPhase!,
    condition: r.condition!,
    next: r,
    progress: { answered: r.answered, total: r.total, practiceTotal: r.practice },
  };
}

/** Progress and next question after a replay (read only; statements/submit-update.sql). */
async function readUpdate(participantId: string, condition: string, config: StudyConfig): Promise<SessionUpdateDto> {
  const [r] = await flowQuery<NextRow & { participantStatus: string }>("submit-update", [participantId]);
  const status = r!.participantStatus;
  return toUpdate(participantId, status, condition, config, status === "active" ? r! : null, {
    answered: r!.answered,
    total: r!.total,
    practiceTotal: r!.practice,
  });
}

function toUpdate(
  participantId: string,
  status: string,
  condition: string,
  config: StudyConfig,
  next: NextRow | null,
  progress: SessionUpdateDto["progress"],
): SessionUpdateDto {
  const { current, upcomingImageIds } = next
    ? nextQuestionOf(next, condition, config)
    : { current: null, upcomingImageIds: [] };
  return {
    participant: { id: participantId, status, condition, consented: true },
    progress,
    current,
    upcomingImageIds,
    ...endScreens(status, config),
    noWork: false,
  };
}

/** A wrong attention check: counted in the participant's flags, and past the limit under screen_out the session ends. */
async function recordAttentionFailure(
  tx: FlowClient,
  participantId: string,
  a: SubmitRow,
  config: StudyConfig,
  now: Date,
): Promise<string | null> {
  const flags = (a.flags ?? {}) as { attentionFailures?: number };
  const failures = (flags.attentionFailures ?? 0) + 1;
  const screenOut = config.attentionPolicy === "screen_out" && failures > config.attentionMaxFailures;
  const newFlags = { ...flags, attentionFailures: failures, flagged: failures > config.attentionMaxFailures };
  await flowQuery("attention-failure", [participantId, JSON.stringify(newFlags), screenOut, now.toISOString()], tx);
  if (!screenOut) return null;
  // The session ended early: the unanswered questions go back to the pool now, not after the timeout.
  await flowQuery("release-unanswered", [participantId, a.studyId], tx);
  return "screened_out";
}

/** An item's public fields (Item.payload): read only for the tasks whose answers are parsed against them. */
async function itemFields(itemId: string): Promise<unknown> {
  const { rows } = await dbPool().query<{ payload: unknown }>(`SELECT payload FROM "Item" WHERE id = $1`, [itemId]);
  return rows[0]?.payload;
}

function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object")
    return Object.entries(value).some(([k, v]) => k.includes("\u0000") || containsNul(v));
  return false;
}
