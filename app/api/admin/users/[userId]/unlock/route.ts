import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { clearUserSignInLock } from "@/lib/server/dal/users/clear-user-sign-in-lock";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /api/admin/users/:userId/unlock – clear the account's failed sign-ins (its throttle); audited (admin)
export const POST = withRole<{ userId: string }>("admin", async ({ params, user }) => {
  return NextResponse.json(await clearUserSignInLock({ user: params.userId, actorId: user.id }));
});
