import "server-only";
import { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { createRng } from "@/lib/rng";
import { StudyConfigSchema } from "@/lib/study-config";

type Tx = Prisma.TransactionClient;

export interface AssignResult {
  /** Main-block items assigned (excluding practice and attention checks). */
  mainAssigned: number;
  /** Tasks that had fewer available items than itemsPerTask (quota nearly full). */
  shortTasks: string[];
}

/** Creates the per-study item counters for every active pool item of the study's tasks (idempotent). */
export async function ensureStudyCounters(tx: Tx, studyId: string, poolVersionId: string, taskIds: string[], excludeItemIds: string[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", "reserved", "answered")
    SELECT ${studyId}, pi."itemId", pi."taskId", 0, 0
    FROM "PoolItem" pi JOIN "Item" i ON i.id = pi."itemId"
    WHERE pi."poolVersionId" = ${poolVersionId} AND i.status = 'active'
      AND pi."taskId" = ANY(${taskIds}::text[]) AND NOT (pi."itemId" = ANY(${excludeItemIds}::text[]))
    ON CONFLICT DO NOTHING`;
}

/**
 * Returns abandoned work to the pool: unanswered main-block assignments of this study whose participant has been
 * inactive past the timeout are marked abandoned and their reservations released.
 */
export async function reclaimExpiredAssignments(tx: Tx, studyId: string, now: Date = new Date()): Promise<number> {
  const released = await tx.$queryRaw<Array<{ itemId: string; phase: string }>>`
    UPDATE "Assignment" a SET status = 'abandoned'
    FROM "Participant" p
    WHERE a."participantId" = p.id AND p."studyId" = ${studyId} AND a.status = 'assigned' AND a."expiresAt" < ${now}
    RETURNING a."itemId", a.phase::text AS phase`;
  const mainItems = released.filter((r) => r.phase === "main").map((r) => r.itemId);
  if (mainItems.length) {
    await tx.$executeRaw`
      UPDATE "StudyItemCounter" c SET reserved = GREATEST(0, c.reserved - x.n)
      FROM (SELECT unnest(${mainItems}::text[]) AS "itemId", 1 AS n) x
      WHERE c."studyId" = ${studyId} AND c."itemId" = x."itemId"`;
  }
  return released.length;
}

/**
 * Assigns a participant's items once: practice items first, then N items per task (least-answered first, never
 * beyond k answers per item, never twice to one participant) mixed with attention checks, in an order shuffled
 * from the participant's recorded seed. Concurrency-safe: assignment is serialised per study with a transaction-scoped
 * advisory lock. (Row locks with SKIP LOCKED under-assign when participants join at once — an item locked by one
 * joiner is skipped by the others although it still has capacity — and row locks taken in per-participant random
 * orders can deadlock.) Assignment runs once per participant and takes milliseconds, so the lock is cheap.
 */
export async function assignItems(participantId: string): Promise<AssignResult> {
  return db.$transaction(
    async (tx) => {
      const [participant] = await tx.$queryRaw<Array<{ id: string; studyId: string; orderSeed: string }>>`
        SELECT id, "studyId", "orderSeed" FROM "Participant" WHERE id = ${participantId}`;
      if (!participant) throw new Error(`participant ${participantId} not found`);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`assign:${participant.studyId}`}))`;
      const existing = await tx.assignment.count({ where: { participantId } });
      if (existing > 0) return { mainAssigned: await tx.assignment.count({ where: { participantId, phase: "main" } }), shortTasks: [] };

      const study = await tx.study.findUniqueOrThrow({ where: { id: participant.studyId }, select: { id: true, poolVersionId: true, config: true } });
      const config = StudyConfigSchema.parse(study.config);
      const special = [...config.practiceItemIds, ...config.attentionItemIds];
      await ensureStudyCounters(tx, study.id, study.poolVersionId, config.tasks, special);
      await reclaimExpiredAssignments(tx, study.id);

      const rng = createRng(`order:${participant.orderSeed}`);
      const mainItems: string[] = [];
      const shortTasks: string[] = [];
      for (const taskId of config.tasks) {
        // Ties in answer count are broken by a per-participant hash so simultaneous joiners spread over items.
        // Counters outlive an item's exclusion or flagging, so the item's current status is checked here.
        const rows = await tx.$queryRaw<Array<{ itemId: string }>>`
          SELECT c."itemId" FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId"
          WHERE c."studyId" = ${study.id} AND c."taskId" = ${taskId} AND c.reserved < ${config.answersPerItem} AND i.status = 'active'
          ORDER BY c.reserved ASC, md5(c."itemId" || ${participant.orderSeed}) ASC
          LIMIT ${config.itemsPerTask}`;
        if (rows.length < config.itemsPerTask) shortTasks.push(taskId);
        mainItems.push(...rows.map((r) => r.itemId));
      }
      if (mainItems.length) {
        await tx.$executeRaw`
          UPDATE "StudyItemCounter" SET reserved = reserved + 1
          WHERE "studyId" = ${study.id} AND "itemId" = ANY(${mainItems}::text[])`;
      }
      if (mainItems.length === 0) return { mainAssigned: 0, shortTasks };

      const activeSpecial = await tx.item.findMany({ where: { id: { in: special }, status: "active" }, select: { id: true } });
      const activeIds = new Set(activeSpecial.map((i) => i.id));
      const practice = config.practiceItemIds.filter((id) => activeIds.has(id));
      const attention = config.attentionItemIds.filter((id) => activeIds.has(id) && !mainItems.includes(id));
      const block = rng.shuffle([
        ...mainItems.map((itemId) => ({ itemId, phase: "main" as const })),
        ...attention.map((itemId) => ({ itemId, phase: "attention" as const })),
      ]);
      const expiresAt = new Date(Date.now() + config.assignmentTimeoutMin * 60_000);
      const ordered = [...practice.map((itemId) => ({ itemId, phase: "practice" as const })), ...block];
      await tx.assignment.createMany({
        data: ordered.map((a, position) => ({ participantId, itemId: a.itemId, phase: a.phase, position, expiresAt })),
      });
      return { mainAssigned: mainItems.length, shortTasks };
    },
    // maxWait: a burst of joiners queues on the advisory lock, each holding a pooled connection; the default 2 s wait
    // for a free connection failed the later ones ("Unable to start a transaction in the given time").
    { maxWait: 30_000, timeout: 30_000 },
  );
}

/**
 * Keeps a participant's unanswered work reserved while they are active; re-reserves reclaimed items if still free.
 * Only for active participants: a screened-out or declined one reloading the page must not take items back.
 */
export async function touchAssignments(participantId: string): Promise<void> {
  const participant = await db.participant.findUnique({ where: { id: participantId }, select: { studyId: true, status: true, study: { select: { config: true } } } });
  if (!participant || participant.status !== "active") return;
  const config = StudyConfigSchema.parse(participant.study.config);
  const expiresAt = new Date(Date.now() + config.assignmentTimeoutMin * 60_000);
  await db.$transaction(async (tx) => {
    // Same lock as assignItems: its counter read and unconditional increment must not interleave with a re-reservation
    // here, or both the newcomer and the returning participant hold an item with one slot left (k exceeded).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`assign:${participant.studyId}`}))`;
    await tx.participant.update({ where: { id: participantId }, data: { lastSeenAt: new Date() } });
    await tx.assignment.updateMany({ where: { participantId, status: "assigned" }, data: { expiresAt } });
    const abandoned = await tx.assignment.findMany({ where: { participantId, status: "abandoned", phase: "main" }, select: { id: true, itemId: true } });
    for (const a of abandoned) {
      const took = await tx.$executeRaw`
        UPDATE "StudyItemCounter" SET reserved = reserved + 1
        WHERE "studyId" = ${participant.studyId} AND "itemId" = ${a.itemId} AND reserved < ${config.answersPerItem}`;
      if (took === 1) await tx.assignment.update({ where: { id: a.id }, data: { status: "assigned", expiresAt } });
    }
    await tx.assignment.updateMany({ where: { participantId, status: "abandoned", phase: { not: "main" } }, data: { status: "assigned", expiresAt } });
  }, { maxWait: 30_000, timeout: 30_000 });
}
