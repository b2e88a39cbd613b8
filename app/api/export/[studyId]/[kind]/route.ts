import { z } from "zod";
import { openStudyExport, STUDY_EXPORT_KINDS } from "@/lib/server/export/open-study-export";
import { contentDisposition, toWebStream } from "@/lib/server/export/table-stream";
import { withRole } from "@/lib/server/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ParamsSchema = z.object({ studyId: z.string().min(1).max(64), kind: z.enum(STUDY_EXPORT_KINDS) });
const QuerySchema = z.object({ scope: z.enum(["study", "pool"]).default("study") });

// GET /api/export/:studyId/:kind?scope=study|pool – streamed CSV (or the VLMEvalKit TSV) of a study; contains gold answers, researchers only
export const GET = withRole<{ studyId: string; kind: string }>("researcher", async ({ request, params }) => {
  const { studyId, kind } = ParamsSchema.parse(params);
  const { scope } = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const opened = await openStudyExport({ studyId, kind, scope });
  return new Response(toWebStream(opened.stream), {
    headers: {
      "Content-Type": opened.contentType,
      "Content-Disposition": contentDisposition(opened.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
