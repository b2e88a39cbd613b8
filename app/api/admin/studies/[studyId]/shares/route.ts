import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { requireStudyAccess, requireStudyOwner } from "@/lib/server/study-access";
import { addStudyShare, listStudyShares, removeStudyShare } from "@/lib/server/dal/studies/study-shares";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/studies/:studyId/shares – who the study is shared with (researcher with access)
export const GET = withRole<{ studyId: string }>("researcher", async ({ params, user }) => {
  await requireStudyAccess(user, params.studyId);
  return NextResponse.json({ shares: await listStudyShares(params.studyId) });
});

// POST /api/admin/studies/:studyId/shares {email} – share with a staff account (the owner or an admin)
export const POST = withRole<{ studyId: string }>("researcher", async ({ request, params, user }) => {
  await requireStudyOwner(user, params.studyId);
  return NextResponse.json({
    shares: await addStudyShare({ studyId: params.studyId, input: await readStaffJsonBody(request), actorId: user.id }),
  });
});

// DELETE /api/admin/studies/:studyId/shares {email} – stop sharing with a staff account (the owner or an admin)
export const DELETE = withRole<{ studyId: string }>("researcher", async ({ request, params, user }) => {
  await requireStudyOwner(user, params.studyId);
  return NextResponse.json({
    shares: await removeStudyShare({
      studyId: params.studyId,
      input: await readStaffJsonBody(request),
      actorId: user.id,
    }),
  });
});
