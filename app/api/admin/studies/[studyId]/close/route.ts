import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { requireStudyAccess } from "@/lib/server/study-access";
import { closeStudy } from "@/lib/server/dal/studies/set-study-status";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /api/admin/studies/:studyId/close – stop admitting participants (researcher)
export const POST = withRole<{ studyId: string }>("researcher", async ({ params, user }) => {
  await requireStudyAccess(user, params.studyId);
  return NextResponse.json(await closeStudy({ studyId: params.studyId, actorId: user.id }));
});
