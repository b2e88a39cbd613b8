import { z } from "zod";
import { openStudyExport, STUDY_EXPORT_KINDS } from "@/lib/server/export/open-study-export";
import { contentDisposition, toWebStream } from "@/lib/server/export/table-stream";
import { withRole } from "@/lib/server/route";
import { requireResultsAccess } from "@/lib/server/study-access";
import { TSV_IMAGE_SIZES } from "@/lib/server/export/tsv-image";
import { PAPER_TABLE_FORMATS, PAPER_TABLE_SCORE_KINDS } from "@/lib/results/paper-table";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ParamsSchema = z.object({ studyId: z.string().min(1).max(64), kind: z.enum(STUDY_EXPORT_KINDS) });
const QuerySchema = z.object({
  scope: z.enum(["study", "pool"]).default("study"),
  // Paper-style tables only (kind "paper-table").
  format: z.enum(PAPER_TABLE_FORMATS).default("latex"),
  metric: z.enum(["exact", "partial", "both"]).default("both"),
  intervals: z.enum(["line", "pm"]).default("line"),
  score: z.enum(PAPER_TABLE_SCORE_KINDS).default("paper"),
  condition: z.enum(["static", "interactive"]).optional(),
  // VLMEvalKit TSV only: longest image side in px.
  size: z.enum(TSV_IMAGE_SIZES).default("original"),
});

// GET /api/export/:studyId/:kind?scope=study|pool – streamed CSV (or the VLMEvalKit TSV) of a study; contains gold answers, researchers only
// (paper-table also takes format=latex|md|csv, metric=exact|partial|both, intervals=line|pm, score, condition)
export const GET = withRole<{ studyId: string; kind: string }>("researcher", async ({ request, params, user }) => {
  const { studyId, kind } = ParamsSchema.parse(params);
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  await requireResultsAccess(user, studyId, query.scope);
  const opened = await openStudyExport({
    studyId,
    kind,
    scope: query.scope,
    imageSize: query.size,
    paperTable: {
      format: query.format,
      metric: query.metric,
      intervals: query.intervals,
      scoreKind: query.score,
      condition: query.condition ?? null,
    },
    // A large study's computed export is this researcher's heavy job, dropped if they leave before it is built.
    caller: { owner: user.id, signal: request.signal },
  });
  return new Response(toWebStream(opened.stream), {
    headers: {
      "Content-Type": opened.contentType,
      "Content-Disposition": contentDisposition(opened.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
