import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { getItemDetail } from "@/lib/server/dal/items/get-item-detail";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/items/:itemId – one item with its audit log (researcher); the gold answer only for admins
export const GET = withRole<{ itemId: string }>("researcher", async ({ params, user }) => {
  return NextResponse.json(await getItemDetail(params.itemId, { includeGold: user.role === "admin" }));
});
