import { NextResponse } from "next/server";
import { z } from "zod";
import { estimateExportSizes } from "@/lib/server/export/estimate-export-size";
import { TSV_IMAGE_SIZES } from "@/lib/server/export/tsv-image";
import { withRole } from "@/lib/server/route";
import { requireResultsAccess } from "@/lib/server/study-access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ParamsSchema = z.object({ studyId: z.string().min(1).max(64) });
const QuerySchema = z.object({
  scope: z.enum(["study", "pool"]).default("study"),
  size: z.enum(TSV_IMAGE_SIZES).default("original"),
});

// GET /api/export/:studyId/estimate?scope=&size= – estimated bytes of the responses export and the VLMEvalKit TSV (researchers)
export const GET = withRole<{ studyId: string }>("researcher", async ({ request, params, user }) => {
  const { studyId } = ParamsSchema.parse(params);
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  await requireResultsAccess(user, studyId, query.scope);
  return NextResponse.json(await estimateExportSizes({ studyId, scope: query.scope, imageSize: query.size }), {
    headers: { "Cache-Control": "no-store" },
  });
});
