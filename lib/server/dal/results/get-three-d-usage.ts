import "server-only";
import { z } from "zod";
import { RESULT_TASK_IDS } from "@/lib/results/task-columns";
import {
  summarizeThreeDUsage,
  threeDUsageOf,
  type TaskUsageSummary,
  type ThreeDUsage,
  type UsageAnswer,
} from "@/lib/results/three-d-usage";
import type { ThreeDUsageExportRow } from "@/lib/export/three-d-usage-table";
import { db } from "@/lib/server/db";
import { Prisma } from "@/prisma/generated/client";
import { Scene3dSchema, type Scene3d } from "@/lib/scene3d";

/** Responses per round trip: an interaction log holds up to 5 000 camera samples (≈ 300 kB). */
const USAGE_PAGE_SIZE = 500;

/** The part of the stored interaction log the usage metrics read; anything else in it is ignored. */
const StoredLogSchema = z.object({
  camera: z
    .array(z.object({ t: z.number(), q: z.tuple([z.number(), z.number(), z.number(), z.number()]), d: z.number() }))
    .optional(),
  events: z.array(z.object({ t: z.number(), type: z.string(), detail: z.string().optional() })).optional(),
});

interface UsageRow {
  id: string;
  submittedAt: Date;
  participantId: string;
  itemId: string;
  taskId: string;
  exact: number;
  rtClientMs: number | null;
  interactionLog: unknown;
}

/** One interactive-condition main answer with its 3D usage (null when the 3D view never rendered). */
export interface AnswerUsageRow {
  studyId: string;
  responseId: string;
  participantId: string;
  itemId: string;
  taskId: string;
  exact: 0 | 1;
  usage: ThreeDUsage | null;
}

/**
 * The interactive-condition main answers of the studies with their usage, in submission order per study, read in
 * keyset pages over (submittedAt, id) (the order of the Response index). The results page and the export both read
 * through this.
 */
export async function* iterateAnswerUsage(studyIds: readonly string[]): AsyncGenerator<AnswerUsageRow> {
  for (const studyId of studyIds) {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const keyset: Prisma.Sql = after
        ? Prisma.sql`AND (r."submittedAt", r.id) > (${after.at}::timestamp(3), ${after.id}::text)`
        : Prisma.empty;
      const page: UsageRow[] = await db.$queryRaw<UsageRow[]>`
        SELECT r.id, r."submittedAt", r."participantId", r."itemId", r."taskId", r.exact, r."rtClientMs", r."interactionLog"
        FROM "Response" r
        WHERE r."studyId" = ${studyId} AND r.phase = 'main' AND r.condition = 'interactive' ${keyset}
        ORDER BY r."submittedAt", r.id LIMIT ${USAGE_PAGE_SIZE}`;
      for (const r of page) {
        yield {
          studyId,
          responseId: r.id,
          participantId: r.participantId,
          itemId: r.itemId,
          taskId: r.taskId,
          exact: r.exact === 1 ? 1 : 0,
          usage: usageOfStoredLog(r.interactionLog, r.rtClientMs),
        };
      }
      const last = page[page.length - 1];
      if (!last || page.length < USAGE_PAGE_SIZE) break;
      after = { at: last.submittedAt, id: last.id };
    }
  }
}

/** The export's rows: answers whose 3D view rendered. */
export async function* iterateThreeDUsageRows(studyIds: readonly string[]): AsyncGenerator<ThreeDUsageExportRow> {
  for await (const row of iterateAnswerUsage(studyIds)) if (row.usage) yield { ...row, usage: row.usage };
}

export interface ThreeDUsageExample {
  studyId: string;
  responseId: string;
  taskId: string;
  rotationDeg: number;
  correct: boolean;
}

export interface ThreeDUsageDto {
  tasks: TaskUsageSummary[];
  /** Interactive-condition main answers, and how many of them had the 3D view rendered (camera samples logged). */
  interactiveAnswers: number;
  withViewer: number;
  /** Per task, the answer with the median total turn: a typical camera path to replay. */
  examples: ThreeDUsageExample[];
}

/** Usage of one stored interaction log (null when no 3D view rendered or the log is unreadable). */
export function usageOfStoredLog(log: unknown, rtClientMs: number | null): ThreeDUsage | null {
  const parsed = StoredLogSchema.safeParse(log);
  return parsed.success ? threeDUsageOf(parsed.data, rtClientMs) : null;
}

/** How participants in the interactive condition used the 3D view, per task (main phase; answers in task order). */
export async function getThreeDUsage(studyIds: readonly string[]): Promise<ThreeDUsageDto> {
  const answers: (UsageAnswer & { responseId: string; studyId: string })[] = [];
  let interactiveAnswers = 0;
  for await (const row of iterateAnswerUsage(studyIds)) {
    interactiveAnswers++;
    if (row.usage)
      answers.push({
        studyId: row.studyId,
        responseId: row.responseId,
        taskId: row.taskId,
        correct: row.exact,
        usage: row.usage,
      });
  }
  const order = new Map<string, number>(RESULT_TASK_IDS.map((t, i) => [t, i]));
  answers.sort((a, b) => (order.get(a.taskId) ?? 99) - (order.get(b.taskId) ?? 99));
  const examples: ThreeDUsageExample[] = [];
  for (const taskId of new Set(answers.map((a) => a.taskId))) {
    const list = answers.filter((a) => a.taskId === taskId).sort((a, b) => a.usage.rotationDeg - b.usage.rotationDeg);
    const median = list[Math.floor((list.length - 1) / 2)]!;
    examples.push({
      studyId: median.studyId,
      responseId: median.responseId,
      taskId,
      rotationDeg: median.usage.rotationDeg,
      correct: median.correct === 1,
    });
  }
  return { tasks: summarizeThreeDUsage(answers), interactiveAnswers, withViewer: answers.length, examples };
}

export interface CameraReplayDto {
  responseId: string;
  taskId: string;
  itemId: string;
  participantId: string;
  correct: boolean;
  rtClientMs: number | null;
  scene: Scene3d;
  camera: { t: number; q: [number, number, number, number]; d: number }[];
  events: { t: number; type: string; detail?: string }[];
  usage: ThreeDUsage | null;
}

/**
 * One answer's camera path with the item's 3D scene, for the researcher's replay; null when the response is not in
 * the study, has no camera path, or its item has no scene. Callers check study access first.
 */
export async function getCameraReplay(studyId: string, responseId: string): Promise<CameraReplayDto | null> {
  const response = await db.response.findFirst({
    where: { id: responseId, studyId },
    select: {
      id: true,
      taskId: true,
      itemId: true,
      participantId: true,
      exact: true,
      rtClientMs: true,
      interactionLog: true,
      item: { select: { payload: true } },
    },
  });
  if (!response) return null;
  const log = StoredLogSchema.safeParse(response.interactionLog);
  const scene = Scene3dSchema.safeParse((response.item.payload as { scene3d?: unknown } | null)?.scene3d);
  if (!log.success || !scene.success || !log.data.camera || log.data.camera.length === 0) return null;
  return {
    responseId: response.id,
    taskId: response.taskId,
    itemId: response.itemId,
    participantId: response.participantId,
    correct: response.exact === 1,
    rtClientMs: response.rtClientMs,
    scene: scene.data,
    camera: log.data.camera,
    events: log.data.events ?? [],
    usage: threeDUsageOf(log.data, response.rtClientMs),
  };
}
