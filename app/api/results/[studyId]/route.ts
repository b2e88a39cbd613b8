import { NextResponse } from "next/server";
import { z } from "zod";
import { getResultsPage } from "@/lib/server/dal/results/get-results-page";
import { withRole } from "@/lib/server/route";
import { requireResultsAccess } from "@/lib/server/study-access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const QuerySchema = z.object({
  scope: z.enum(["study", "pool"]).default("study"),
  condition: z.enum(["static", "interactive"]).optional(),
  seed: z.string().min(1).max(200).optional(),
});

// GET /api/results/:studyId?scope=&condition=&seed= – the results page's numbers as JSON (human summary, item analysis, model comparison)
export const GET = withRole<{ studyId: string }>("researcher", async ({ request, params, user }) => {
  const studyId = z.string().min(1).max(64).parse(params.studyId);
  const q = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  await requireResultsAccess(user, studyId, q.scope);
  const page = await getResultsPage({
    studyId,
    scope: q.scope,
    condition: q.condition ?? null,
    ...(q.seed ? { seed: q.seed } : {}),
    // The researcher's share of the heavy-work pool; the work is dropped if they leave before it starts.
    owner: user.id,
    signal: request.signal,
  });
  return NextResponse.json(page, { headers: { "Cache-Control": "no-store" } });
});
