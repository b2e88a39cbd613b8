import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { setUserDisabled } from "@/lib/server/dal/users/set-user-disabled";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// PATCH /api/admin/users/:userId {disabled} – disable or re-enable a staff account; audited (admin)
export const PATCH = withRole<{ userId: string }>("admin", async ({ request, params, user }) => {
  return NextResponse.json(
    await setUserDisabled({ user: params.userId, input: await readStaffJsonBody(request), actorId: user.id }),
  );
});
