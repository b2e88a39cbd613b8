import "server-only";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { StudyConfigSchema } from "@/lib/study-config";
import { countMainItemsPerTask } from "./get-study";

export interface TaskProgressDto {
  taskId: string;
  /** Main-block items that can be served (counters once open, else active pool items). */
  items: number;
  /** items × k. */
  quota: number;
  /** Stored main-block responses. */
  answers: number;
  /** Live reservations (assigned, not yet answered) from StudyItemCounter. */
  reservedOpen: number;
  /** Items that reached k answers. */
  itemsAtQuota: number;
  /** Median response time, ms: server-measured where present, else client-measured. */
  medianRtMs: number | null;
  medianRtServerMs: number | null;
  medianRtClientMs: number | null;
}

export interface StudyMonitorDto {
  studyId: string;
  status: string;
  generatedAt: Date;
  answersPerItem: number;
  participants: {
    started: number;
    byStatus: Record<"consenting" | "active" | "completed" | "screened_out" | "declined", number>;
    byCondition: Record<string, number>;
  };
  tasks: TaskProgressDto[];
  totals: {
    answers: number;
    quota: number;
    practiceAnswers: number;
    attentionAnswers: number;
    medianRtMs: number | null;
  };
  lastResponseAt: Date | null;
}

const PARTICIPANT_STATUSES = ["consenting", "active", "completed", "screened_out", "declined"] as const;

const toNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Live progress of a study: participants per status, answers per task against quota, median response times. */
export async function getStudyMonitor(studyId: string): Promise<StudyMonitorDto> {
  const study = await db.study.findUnique({
    where: { id: studyId },
    select: { id: true, status: true, config: true, poolVersionId: true },
  });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}.`);
  const config = StudyConfigSchema.safeParse(study.config);
  const k = config.success ? config.data.answersPerItem : 0;
  const tasks = config.success ? config.data.tasks : [];

  const [byStatus, byCondition, counters, rtRows, phaseRows, overall, last, poolCounts] = await Promise.all([
    db.participant.groupBy({ by: ["status"], where: { studyId }, _count: { _all: true } }),
    db.participant.groupBy({ by: ["condition"], where: { studyId }, _count: { _all: true } }),
    db.$queryRaw<Array<{ taskId: string; items: bigint; answered: bigint; reserved: bigint; at_quota: bigint }>>`
      SELECT "taskId", COUNT(*) AS items, COALESCE(SUM(answered), 0) AS answered,
             COALESCE(SUM(GREATEST(reserved - answered, 0)), 0) AS reserved,
             COUNT(*) FILTER (WHERE answered >= ${k}) AS at_quota
      FROM "StudyItemCounter" WHERE "studyId" = ${studyId} GROUP BY "taskId"`,
    db.$queryRaw<
      Array<{
        taskId: string;
        answers: bigint;
        med_any: number | null;
        med_server: number | null;
        med_client: number | null;
      }>
    >`
      SELECT "taskId", COUNT(*) AS answers,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY COALESCE("rtServerMs", "rtClientMs")) AS med_any,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY "rtServerMs") AS med_server,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY "rtClientMs") AS med_client
      FROM "Response" WHERE "studyId" = ${studyId} AND phase = 'main' GROUP BY "taskId"`,
    db.response.groupBy({ by: ["phase"], where: { studyId }, _count: { _all: true } }),
    db.$queryRaw<Array<{ med: number | null }>>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY COALESCE("rtServerMs", "rtClientMs")) AS med
      FROM "Response" WHERE "studyId" = ${studyId} AND phase = 'main'`,
    db.response.findFirst({ where: { studyId }, orderBy: { submittedAt: "desc" }, select: { submittedAt: true } }),
    // Before opening there are no counters yet; the pool tells how many items there will be.
    config.success
      ? countMainItemsPerTask(study.poolVersionId, config.data)
      : Promise.resolve({} as Record<string, number>),
  ]);

  const statusCounts = Object.fromEntries(
    PARTICIPANT_STATUSES.map((s) => [s, 0]),
  ) as StudyMonitorDto["participants"]["byStatus"];
  for (const g of byStatus) statusCounts[g.status] = g._count._all;
  const counterBy = new Map(counters.map((c) => [c.taskId, c]));
  const rtBy = new Map(rtRows.map((r) => [r.taskId, r]));
  const taskIds = [...new Set([...tasks, ...counters.map((c) => c.taskId), ...rtRows.map((r) => r.taskId)])];

  const taskRows: TaskProgressDto[] = taskIds.map((taskId) => {
    const c = counterBy.get(taskId);
    const r = rtBy.get(taskId);
    const items = c ? Number(c.items) : (poolCounts[taskId] ?? 0);
    return {
      taskId,
      items,
      quota: items * k,
      answers: r ? Number(r.answers) : 0,
      reservedOpen: c ? Number(c.reserved) : 0,
      itemsAtQuota: c ? Number(c.at_quota) : 0,
      medianRtMs: toNumber(r?.med_any),
      medianRtServerMs: toNumber(r?.med_server),
      medianRtClientMs: toNumber(r?.med_client),
    };
  });
  const phaseCount = (p: string) => phaseRows.find((g) => g.phase === p)?._count._all ?? 0;
  return {
    studyId,
    status: study.status,
    generatedAt: new Date(),
    answersPerItem: k,
    participants: {
      started: byStatus.reduce((sum, g) => sum + g._count._all, 0),
      byStatus: statusCounts,
      byCondition: Object.fromEntries(byCondition.map((g) => [g.condition, g._count._all])),
    },
    tasks: taskRows,
    totals: {
      answers: taskRows.reduce((s, t) => s + t.answers, 0),
      quota: taskRows.reduce((s, t) => s + t.quota, 0),
      practiceAnswers: phaseCount("practice"),
      attentionAnswers: phaseCount("attention"),
      medianRtMs: toNumber(overall[0]?.med),
    },
    lastResponseAt: last?.submittedAt ?? null,
  };
}
