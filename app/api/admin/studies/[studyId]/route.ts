import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { requireStudyAccess } from "@/lib/server/study-access";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { updateStudy } from "@/lib/server/dal/studies/save-study";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/studies/:studyId – a study with its validated config and readiness to open (researcher)
export const GET = withRole<{ studyId: string }>("researcher", async ({ params, user }) => {
  await requireStudyAccess(user, params.studyId);
  return NextResponse.json(await getStudy(params.studyId));
});

// PUT /api/admin/studies/:studyId {name, slug, poolVersionId, config} – replace; only before anyone joined (researcher)
export const PUT = withRole<{ studyId: string }>("researcher", async ({ request, params, user }) => {
  await requireStudyAccess(user, params.studyId);
  return NextResponse.json(
    await updateStudy({ studyId: params.studyId, input: await readStaffJsonBody(request), actorId: user.id }),
  );
});
