import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { setItemStatus } from "@/lib/server/dal/items/set-item-status";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /api/admin/items/:itemId/status {status, reason} – exclude, flag or re-activate an item, audited (admin)
export const POST = withRole<{ itemId: string }>("admin", async ({ request, params, user }) => {
  const result = await setItemStatus({
    itemId: params.itemId,
    change: await readStaffJsonBody(request),
    actorId: user.id,
  });
  return NextResponse.json(result);
});
