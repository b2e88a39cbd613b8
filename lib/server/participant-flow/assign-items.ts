import "server-only";
import { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { flowQuery, type FlowClient } from "@/lib/server/participant-flow/flow-sql";
import { readConsentContext, type ConsentContext } from "@/lib/server/participant-flow/consent-context";
import { orderSlots, slotArrays } from "@/lib/participant/order-slots";
import { StudyConfigSchema, type StudyConfig } from "@/lib/study-config";
import { ADDRESS_SHARE, initialReservationMin } from "@/lib/participant/address-share";

export interface AssignResult {
  /** Main-block items assigned (excluding practice and attention checks). */
  mainAssigned: number;
  /** Tasks that had fewer available items than itemsPerTask (quota nearly full). */
  shortTasks: string[];
  /**
   * Why the participant was not started: no item has a free slot, maxParticipants have started, or their network
   * address already holds its share of the study (lib/participant/address-share.ts). They stay `consenting`, hold
   * nothing and are not counted.
   */
  notStarted?: "no_items" | "full" | "address_share";
}

/** Creates the per-study item counters for every active pool item of the study's tasks (idempotent). */
export async function ensureStudyCounters(
  studyId: string,
  poolVersionId: string,
  taskIds: string[],
  excludeItemIds: string[],
): Promise<void> {
  await flowQuery("ensure-counters", [studyId, poolVersionId, taskIds, excludeItemIds]);
}

// Counters only need creating once per study × pool version × task list; this process remembers it did so.
const countersEnsured = new Set<string>();
async function ensureCountersOnce(study: { id: string; poolVersionId: string }, config: StudyConfig): Promise<void> {
  const key = `${study.id}|${study.poolVersionId}|${config.tasks.join(",")}`;
  if (countersEnsured.has(key)) return;
  await ensureStudyCounters(study.id, study.poolVersionId, config.tasks, [
    ...config.practiceItemIds,
    ...config.attentionItemIds,
  ]);
  countersEnsured.add(key);
}

/**
 * Returns abandoned work to the pool: unanswered assignments of this study whose reservation expired (no answer for
 * `assignmentTimeoutMin`) are marked abandoned and their counter slots released. One statement (sql/statements/reclaim.sql).
 */
export async function reclaimExpiredAssignments(
  studyId: string,
  now: Date = new Date(),
  client?: FlowClient,
): Promise<number> {
  const [row] = await flowQuery<{ released: number; counters: number }>(
    "reclaim",
    [studyId, now.toISOString()],
    client,
  );
  return row?.released ?? 0;
}

// Reclaiming scans the study's expired reservations: done at most every 15 s per study and process, off the hot path.
const lastReclaim = new Map<string, number>();
async function reclaimThrottled(studyId: string): Promise<void> {
  const now = Date.now();
  if ((lastReclaim.get(studyId) ?? 0) > now - 15_000) return;
  lastReclaim.set(studyId, now);
  await reclaimExpiredAssignments(studyId);
}

async function loadStudy(studyId: string) {
  const study = await db.study.findUniqueOrThrow({
    where: { id: studyId },
    select: { id: true, poolVersionId: true, config: true },
  });
  return { ...study, config: StudyConfigSchema.parse(study.config) };
}

/**
 * Can the study take one more participant? At least one main item with a free slot (fewer than k reserved) and
 * fewer than maxParticipants started. Checked before consent, so a participant who would get nothing is told so first.
 * `loaded`: the study as the caller already read it (the session read), which saves reading it again.
 */
export async function hasCapacity(
  studyId: string,
  loaded?: { id: string; poolVersionId: string; config: StudyConfig },
): Promise<boolean> {
  return withDbRetry(async () => {
    const study = loaded ?? (await loadStudy(studyId));
    await ensureCountersOnce(study, study.config);
    const check = async () => {
      const { config } = study;
      const [row] = await flowQuery<{ capacity: boolean }>("has-capacity", [
        studyId,
        config.tasks,
        config.answersPerItem,
        [...config.practiceItemIds, ...config.attentionItemIds],
        config.maxParticipants,
      ]);
      return row!.capacity;
    };
    if (await check()) return true;
    await reclaimThrottled(studyId);
    return check();
  });
}

/**
 * Starts a participant who accepted consent: reserves N items per task (least-reserved first, never beyond k, never
 * twice to one participant), adds practice items and attention checks in the order `orderSlots` gives, marks them
 * active and counts them against maxParticipants, all in ONE database call (misi_start_participant,
 * sql/functions/40_start_participant.sql): its row locks are held for the function's own run time, never across a round trip to the app.
 * Nothing is reserved or counted when no item is free or the study is full. Returns null for a participant who is
 * not deciding on consent (already started, declined): starting happens once. `context` is the consent request's
 * read (readConsentContext); without it, it is read here. Retried on a dropped connection: the call is atomic, and a
 * retry after one that committed finds the participant no longer consenting (null).
 */
export async function startParticipant(
  participantId: string,
  device: Prisma.InputJsonValue | null,
  context?: ConsentContext,
  addressKey: string | null = null,
): Promise<AssignResult | null> {
  return withDbRetry(async () => {
    const ctx = context ?? (await readConsentContext(participantId))?.context;
    if (!ctx) return null;
    return startParticipantOnce(participantId, device, ctx, addressKey);
  });
}

/**
 * startParticipant without the retry (tests call it to see every database error). `addressKey`: the participant's
 * network address as a keyed hash (participantAddressKey); null starts without the per-address share.
 */
export async function startParticipantOnce(
  participantId: string,
  device: Prisma.InputJsonValue | null,
  ctx: ConsentContext,
  addressKey: string | null = null,
): Promise<AssignResult | null> {
  if (ctx.status !== "consenting") return null;
  const { study, orderSeed } = ctx;
  const { config } = study;
  await ensureCountersOnce(study, config);
  await reclaimThrottled(study.id);
  const slots = slotArrays(orderSlots(orderSeed, config));
  const now = new Date();
  // A participant who does not answer within the first-answer window releases the reservation; each answer renews it
  // for assignmentTimeoutMin (record-response.ts).
  const expiresAt = new Date(now.getTime() + initialReservationMin(config.assignmentTimeoutMin) * 60_000);
  const [row] = await flowQuery<{
    outcome: "started" | "not_consenting" | "full" | "no_items" | "address_share";
    main_assigned: number;
    short_tasks: string[];
  }>("start", [
    participantId,
    study.id,
    config.tasks,
    config.itemsPerTask,
    config.answersPerItem,
    config.maxParticipants,
    [...config.practiceItemIds, ...config.attentionItemIds],
    orderSeed,
    slots.task,
    slots.j,
    slots.item,
    slots.phase,
    expiresAt.toISOString(),
    now.toISOString(),
    device === null ? null : JSON.stringify(device),
    config.hbondPrimer,
    addressKey,
    addressKey === null ? null : ADDRESS_SHARE,
    // The condition is given here, at the start, by the start's number (misi_start_participant, docs/participants.md).
    config.conditions,
  ]);
  if (!row || row.outcome === "not_consenting") return null;
  if (row.outcome === "started") return { mainAssigned: row.main_assigned, shortTasks: row.short_tasks };
  return { mainAssigned: 0, shortTasks: config.tasks, notStarted: row.outcome };
}
