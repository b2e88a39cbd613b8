import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { ItemListQuerySchema, toQueryRecord } from "@/lib/pools/item-filter";
import { listItems } from "@/lib/server/dal/items/list-items";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/items?task=&split=&source=&status=&tag=&q=&page=&pageSize= – one page of items (researcher; no gold)
export const GET = withRole("researcher", async ({ request }) => {
  const query = ItemListQuerySchema.parse(toQueryRecord(new URL(request.url).searchParams));
  return NextResponse.json(await listItems(query));
});
