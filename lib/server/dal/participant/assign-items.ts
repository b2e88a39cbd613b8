import "server-only";
import { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { createLimiter } from "@/lib/server/concurrency";
import { withDbRetry } from "@/lib/server/db-retry";
import { env } from "@/lib/server/env";
import { createRng } from "@/lib/rng";
import { StudyConfigSchema, type StudyConfig } from "@/lib/study-config";

type Client = Prisma.TransactionClient | typeof db;

export interface AssignResult {
  /** Main-block items assigned (excluding practice and attention checks). */
  mainAssigned: number;
  /** Tasks that had fewer available items than itemsPerTask (quota nearly full). */
  shortTasks: string[];
  /**
   * Why the participant was not started: no item has a free slot, or maxParticipants have started. They stay
   * `consenting`, hold nothing and are not counted.
   */
  notStarted?: "no_items" | "full";
}

/** Creates the per-study item counters for every active pool item of the study's tasks (idempotent). */
export async function ensureStudyCounters(client: Client, studyId: string, poolVersionId: string, taskIds: string[], excludeItemIds: string[]): Promise<void> {
  await client.$executeRaw`
    INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", "reserved", "answered")
    SELECT ${studyId}, pi."itemId", pi."taskId", 0, 0
    FROM "PoolItem" pi JOIN "Item" i ON i.id = pi."itemId"
    WHERE pi."poolVersionId" = ${poolVersionId} AND i.status = 'active'
      AND pi."taskId" = ANY(${taskIds}::text[]) AND NOT (pi."itemId" = ANY(${excludeItemIds}::text[]))
    ON CONFLICT DO NOTHING`;
}

// Counters only need creating once per study × pool version × task list; this process remembers it did so.
const countersEnsured = new Set<string>();
async function ensureCountersOnce(study: { id: string; poolVersionId: string }, config: StudyConfig): Promise<void> {
  const key = `${study.id}|${study.poolVersionId}|${config.tasks.join(",")}`;
  if (countersEnsured.has(key)) return;
  await ensureStudyCounters(db, study.id, study.poolVersionId, config.tasks, [...config.practiceItemIds, ...config.attentionItemIds]);
  countersEnsured.add(key);
}

/**
 * Returns abandoned work to the pool: unanswered assignments of this study whose reservation expired (no answer for
 * `assignmentTimeoutMin`) are marked abandoned and their counter slots released. One statement.
 */
export async function reclaimExpiredAssignments(client: Client, studyId: string, now: Date = new Date()): Promise<number> {
  const [row] = await client.$queryRaw<Array<{ released: number }>>`
    WITH rel AS (
      UPDATE "Assignment" a SET status = 'abandoned'
      FROM "Participant" p
      WHERE a."participantId" = p.id AND p."studyId" = ${studyId} AND a.status = 'assigned' AND a."expiresAt" < ${now}
      RETURNING a."itemId", a.phase
    ), per_item AS (
      SELECT "itemId", count(*)::int AS n FROM rel WHERE phase = 'main' GROUP BY "itemId"
    ), released AS (
      UPDATE "StudyItemCounter" c SET reserved = GREATEST(0, c.reserved - per_item.n)
      FROM per_item WHERE c."studyId" = ${studyId} AND c."itemId" = per_item."itemId"
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM rel)::int AS released, (SELECT count(*) FROM released)::int AS counters`;
  return row?.released ?? 0;
}

// Reclaiming scans the study's expired reservations: done at most every 15 s per study and process, off the hot path.
const lastReclaim = new Map<string, number>();
async function reclaimThrottled(studyId: string): Promise<void> {
  const now = Date.now();
  if ((lastReclaim.get(studyId) ?? 0) > now - 15_000) return;
  lastReclaim.set(studyId, now);
  await reclaimExpiredAssignments(db, studyId);
}

async function loadStudy(studyId: string) {
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { id: true, poolVersionId: true, config: true } });
  return { ...study, config: StudyConfigSchema.parse(study.config) };
}

/**
 * Can the study take one more participant? At least one main item with a free slot (fewer than k reserved) and
 * fewer than maxParticipants started. Checked before consent, so a participant who would get nothing is told so first.
 */
export async function hasCapacity(studyId: string): Promise<boolean> {
  return withDbRetry(async () => {
    const study = await loadStudy(studyId);
    await ensureCountersOnce(study, study.config);
    const check = async () => {
      const special = [...study.config.practiceItemIds, ...study.config.attentionItemIds];
      const [row] = await db.$queryRaw<Array<{ started: number; free: boolean }>>`
        SELECT COALESCE((SELECT started FROM "StudyParticipantCounter" WHERE "studyId" = ${studyId}), 0)::int AS started,
               EXISTS (
                 SELECT 1 FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId"
                 WHERE c."studyId" = ${studyId} AND c."taskId" = ANY(${study.config.tasks}::text[])
                   AND c.reserved < ${study.config.answersPerItem}::int AND i.status = 'active' AND NOT (c."itemId" = ANY(${special}::text[]))
               ) AS free`;
      if (study.config.maxParticipants !== null && row!.started >= study.config.maxParticipants) return false;
      return row!.free;
    };
    if (await check()) return true;
    await reclaimThrottled(studyId);
    return check();
  });
}

// A burst of starters waits here, in memory, instead of on counter-row locks with a pooled connection each: at most a
// quarter of the pool ever works on starts, so answer submits of participants already working always find connections.
const startLimiter = createLimiter(Math.max(1, Math.floor(env.DATABASE_POOL_MAX / 4)));

/**
 * Starts a participant who accepted consent: reserves N items per task (least-reserved first, never beyond k, never
 * twice to one participant), adds practice items and attention checks in an order shuffled from the participant's
 * seed, marks them active and counts them against maxParticipants, all in one short transaction. No study-wide lock:
 * each reservation is a conditional increment (`reserved < k`) under the counter row's lock, rows locked in item-id
 * order; an item lost to a concurrent starter is replaced in a further round. Nothing is reserved or counted when no
 * item is free or the study is full. Returns null for a participant who is not deciding on consent (already started,
 * declined): starting happens once.
 */
export async function startParticipant(participantId: string, device: Prisma.InputJsonValue | null): Promise<AssignResult | null> {
  return withDbRetry(async () => {
    const participant = await db.participant.findUnique({ where: { id: participantId }, select: { status: true, studyId: true, orderSeed: true } });
    if (!participant || participant.status !== "consenting") return null;
    const study = await loadStudy(participant.studyId);
    const { config } = study;
    await ensureCountersOnce(study, config);
    await reclaimThrottled(study.id);
    return startLimiter(() => startTransaction(participantId, participant.orderSeed, study, device));
  });
}

class NotStarted extends Error {
  constructor(readonly reason: "no_items" | "full" | "not_consenting") {
    super(reason);
  }
}

async function startTransaction(
  participantId: string,
  orderSeed: string,
  study: { id: string; config: StudyConfig },
  device: Prisma.InputJsonValue | null,
): Promise<AssignResult | null> {
  const { config } = study;
  const special = [...config.practiceItemIds, ...config.attentionItemIds];
  try {
    return await db.$transaction(
      async (tx) => {
        // A retried consent can run while the first start is still in this transaction: the participant's row lock
        // makes the second wait, then find him started (no second reservation, no unique-index failure).
        const [me] = await tx.$queryRaw<Array<{ status: string }>>`
          SELECT status::text AS status FROM "Participant" WHERE id = ${participantId} FOR UPDATE`;
        if (me?.status !== "consenting") throw new NotStarted("not_consenting");
        const got = new Map<string, string[]>(config.tasks.map((t) => [t, []]));
        for (let round = 0; round < 4; round++) {
          const needs = config.tasks.map((t) => config.itemsPerTask - got.get(t)!.length);
          const wanted = needs.reduce((a, b) => a + b, 0);
          if (wanted === 0) break;
          const taken = [...got.values()].flat();
          // Candidates from this statement's snapshot; their counter rows are then locked in item-id order (no
          // deadlock between starters) and incremented only while still below k (re-checked on the locked row).
          const rows = await tx.$queryRaw<Array<{ itemId: string; taskId: string }>>`
            WITH need AS (
              SELECT * FROM unnest(${config.tasks}::text[], ${needs}::int[]) AS n(task, need)
            ), cand AS (
              SELECT c."itemId", c."taskId",
                     row_number() OVER (PARTITION BY c."taskId" ORDER BY c.reserved, md5(c."itemId" || ${orderSeed})) AS rn
              FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId"
              WHERE c."studyId" = ${study.id} AND c."taskId" = ANY(${config.tasks}::text[]) AND c.reserved < ${config.answersPerItem}::int
                AND i.status = 'active' AND NOT (c."itemId" = ANY(${special}::text[])) AND NOT (c."itemId" = ANY(${taken}::text[]))
            ), pick AS (
              SELECT cand."itemId" FROM cand JOIN need ON need.task = cand."taskId" WHERE cand.rn <= need.need
            ), locked AS (
              SELECT c."itemId" FROM "StudyItemCounter" c
              WHERE c."studyId" = ${study.id} AND c."itemId" IN (SELECT "itemId" FROM pick)
              ORDER BY c."itemId" FOR UPDATE
            )
            UPDATE "StudyItemCounter" c SET reserved = c.reserved + 1
            FROM locked WHERE c."studyId" = ${study.id} AND c."itemId" = locked."itemId" AND c.reserved < ${config.answersPerItem}::int
            RETURNING c."itemId", c."taskId"`;
          for (const r of rows) got.get(r.taskId)!.push(r.itemId);
          if (rows.length === wanted || (rows.length === 0 && round > 0)) break;
        }
        const mainItems = config.tasks.flatMap((t) => got.get(t)!);
        const shortTasks = config.tasks.filter((t) => got.get(t)!.length < config.itemsPerTask);
        if (mainItems.length === 0) throw new NotStarted("no_items");

        const rng = createRng(`order:${orderSeed}`);
        const block = rng.shuffle([
          ...mainItems.map((itemId) => ({ itemId, phase: "main" })),
          ...config.attentionItemIds.filter((id) => !mainItems.includes(id)).map((itemId) => ({ itemId, phase: "attention" })),
        ]);
        const ordered = [...config.practiceItemIds.map((itemId) => ({ itemId, phase: "practice" })), ...block];
        const expiresAt = new Date(Date.now() + config.assignmentTimeoutMin * 60_000);
        // Practice items and attention checks are skipped when no longer active (positions may then have gaps).
        await tx.$executeRaw`
          INSERT INTO "Assignment" (id, "participantId", "itemId", position, phase, "expiresAt")
          SELECT gen_random_uuid()::text, ${participantId}, x."itemId", x.position, x.phase::"AssignmentPhase", ${expiresAt}
          FROM unnest(${ordered.map((a) => a.itemId)}::text[], ${ordered.map((_, i) => i)}::int[], ${ordered.map((a) => a.phase)}::text[])
            AS x("itemId", position, phase)
          JOIN "Item" i ON i.id = x."itemId"
          WHERE x.phase = 'main' OR i.status = 'active'`;

        // Last, so the study's counter row is locked only until the commit that follows.
        const [counted] = await tx.$queryRaw<Array<{ activated: number; counted: number }>>`
          WITH p AS (
            -- flags.hbondPrimer: whether this participant's study shows the H-bond primer, recorded with the participant.
            UPDATE "Participant" SET status = 'active', "consentAt" = ${new Date()}, "deviceInfo" = ${device === null ? null : JSON.stringify(device)}::jsonb,
                   flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimer', ${config.hbondPrimer}::boolean)
            WHERE id = ${participantId} AND status = 'consenting'
            RETURNING id
          ), c AS (
            INSERT INTO "StudyParticipantCounter" ("studyId", joined, started) SELECT ${study.id}, 0, 1 FROM p
            ON CONFLICT ("studyId") DO UPDATE SET started = "StudyParticipantCounter".started + 1
            WHERE ${config.maxParticipants}::int IS NULL OR "StudyParticipantCounter".started < ${config.maxParticipants}::int
            RETURNING started
          )
          SELECT (SELECT count(*) FROM p)::int AS activated, (SELECT count(*) FROM c)::int AS counted`;
        if (counted!.activated !== 1) throw new NotStarted("not_consenting");
        if (counted!.counted !== 1) throw new NotStarted("full");
        return { mainAssigned: mainItems.length, shortTasks };
      },
      { maxWait: env.DATABASE_POOL_TIMEOUT_MS, timeout: 30_000 },
    );
  } catch (err) {
    if (!(err instanceof NotStarted)) throw err;
    if (err.reason === "not_consenting") return null;
    return { mainAssigned: 0, shortTasks: config.tasks, notStarted: err.reason };
  }
}
