import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { requireStudyAccess } from "@/lib/server/study-access";
import { getStudyMonitor } from "@/lib/server/dal/studies/get-study-monitor";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/studies/:studyId/monitor – live progress: participants, answers per task vs quota, median times (researcher)
export const GET = withRole<{ studyId: string }>("researcher", async ({ params, user }) => {
  await requireStudyAccess(user, params.studyId);
  return NextResponse.json(await getStudyMonitor(params.studyId), { headers: { "Cache-Control": "no-store" } });
});
