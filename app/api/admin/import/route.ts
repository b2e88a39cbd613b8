import { NextResponse, after } from "next/server";
import { z } from "zod";
import { ImportKindSchema } from "@/lib/import/report";
import { AppError } from "@/lib/server/errors";
import { withRole } from "@/lib/server/route";
import { listImportBatches } from "@/lib/server/dal/imports/list-import-batches";
import { receiveUploadForImport } from "@/lib/server/dal/imports/start-upload-import";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const UploadQuerySchema = z.object({
  name: z.string().trim().min(1, "give the file name as ?name=").max(255),
  kind: z.union([z.literal("auto"), ImportKindSchema]).default("auto"),
  dryRun: z.enum(["0", "1"]).default("0"),
  ligand: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_+-]{1,4}:[^:\s]?:-?\d+[A-Za-z]?$/, "ligand must be RES:CHAIN:NUM, e.g. NDP:A:701")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

// POST /api/admin/import?name=&kind=&dryRun=&ligand= – raw file body (application/octet-stream); streams it to a
// temp file, answers 202 with the batch id, then imports in the background (poll GET /api/admin/import/:batchId).
export const POST = withRole("admin", async ({ request, user }) => {
  const query = UploadQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  // A raw body (not a form) keeps cross-site HTML forms out and needs no multipart parsing for 2 GB files.
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/octet-stream")) throw new AppError("BAD_REQUEST", "Send the file as the request body with Content-Type: application/octet-stream.");
  if (!request.body) throw new AppError("BAD_REQUEST", "The request has no body.");
  const received = await receiveUploadForImport({
    body: request.body,
    fileName: query.name,
    ...(query.kind !== "auto" ? { kind: query.kind } : {}),
    dryRun: query.dryRun === "1",
    ...(query.ligand ? { ligand: query.ligand } : {}),
    actorId: user.id,
  });
  after(received.run);
  return NextResponse.json({ batchId: received.batchId }, { status: 202 });
});

// GET /api/admin/import – recent import batches with summary counts (admin)
export const GET = withRole("admin", async () => NextResponse.json({ batches: await listImportBatches() }));
