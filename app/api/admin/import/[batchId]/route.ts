import { NextResponse } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/server/errors";
import { withRole } from "@/lib/server/route";
import { findImportBatch } from "@/lib/server/dal/imports/get-import-batch";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ParamsSchema = z.object({ batchId: z.string().min(1).max(64) });

// GET /api/admin/import/:batchId – status, progress while running, the report when done (admin)
export const GET = withRole<{ batchId: string }>("admin", async ({ params }) => {
  const { batchId } = ParamsSchema.parse(params);
  const batch = await findImportBatch(batchId);
  if (!batch) throw new AppError("NOT_FOUND", "No such import batch.");
  return NextResponse.json(batch, { headers: { "Cache-Control": "no-store" } });
});
