import { NextResponse, after } from "next/server";
import { z } from "zod";
import { ImportKindSchema } from "@/lib/import/report";
import { parseTaskList } from "@/lib/import/task-inference";
import { AppError } from "@/lib/server/errors";
import { withRole } from "@/lib/server/route";
import { listImportBatches } from "@/lib/server/dal/imports/list-import-batches";
import { receiveUploadForImport } from "@/lib/server/dal/imports/start-upload-import";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const UploadQuerySchema = z
  .object({
    name: z.string().trim().min(1, "give the file name as ?name=").max(255),
    kind: z.union([z.literal("auto"), ImportKindSchema]).default("auto"),
    dryRun: z.enum(["0", "1"]).default("0"),
    ligand: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_+-]{1,4}:[^:\s]?:-?\d+[A-Za-z]?$/, "ligand must be RES:CHAIN:NUM, e.g. NDP:A:701")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Structures: generate items for these tasks ("all", "t1,t5", task ids); empty for none. */
    generate: z.string().trim().max(200).optional(),
    perTask: z.coerce.number().int().min(1).max(1000).optional(),
    seed: z.string().trim().min(1).max(100).optional(),
    size: z.coerce.number().int().min(16).max(4096).optional(),
  })
  .transform((q, ctx) => {
    if (!q.generate) return { ...q, generateOptions: undefined };
    const tasks = parseTaskList(q.generate);
    if (!tasks.ok) {
      ctx.addIssue({ code: "custom", path: ["generate"], message: tasks.error });
      return z.NEVER;
    }
    if (q.perTask === undefined || q.seed === undefined) {
      ctx.addIssue({ code: "custom", path: ["generate"], message: "generating items needs perTask and seed" });
      return z.NEVER;
    }
    return {
      ...q,
      generateOptions: { tasks: tasks.tasks, perTask: q.perTask, seed: q.seed, ...(q.size ? { sizePx: q.size } : {}) },
    };
  });

// POST /api/admin/import?name=&kind=&dryRun=&ligand=&generate=&perTask=&seed=&size= – raw file body (application/octet-stream); streams it to a
// temp file, answers 202 with the batch id, then imports in the background (poll GET /api/admin/import/:batchId).
export const POST = withRole("admin", async ({ request, user }) => {
  const query = UploadQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  // A raw body (not a form) keeps cross-site HTML forms out and needs no multipart parsing for 2 GB files.
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/octet-stream"))
    throw new AppError("BAD_REQUEST", "Send the file as the request body with Content-Type: application/octet-stream.");
  if (!request.body) throw new AppError("BAD_REQUEST", "The request has no body.");
  const received = await receiveUploadForImport({
    body: request.body,
    fileName: query.name,
    ...(query.kind !== "auto" ? { kind: query.kind } : {}),
    dryRun: query.dryRun === "1",
    ...(query.ligand ? { ligand: query.ligand } : {}),
    ...(query.generateOptions ? { generate: query.generateOptions } : {}),
    actorId: user.id,
  });
  after(received.run);
  return NextResponse.json({ batchId: received.batchId }, { status: 202 });
});

// GET /api/admin/import – recent import batches with summary counts (admin)
export const GET = withRole("admin", async () => NextResponse.json({ batches: await listImportBatches() }));
