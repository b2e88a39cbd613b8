import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { listPools } from "@/lib/server/dal/pools/list-pools";
import { createPool } from "@/lib/server/dal/pools/create-pool";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/pools – every pool with its versions (researcher: needed to pick a pool for a study)
export const GET = withRole("researcher", async () => NextResponse.json({ pools: await listPools() }));

// POST /api/admin/pools {mode: "filter"|"stratified", …} – build a pool's version 1 (admin)
export const POST = withRole("admin", async ({ request, user }) => {
  const result = await createPool({ input: await readStaffJsonBody(request), actorId: user.id });
  return NextResponse.json(result, { status: 201 });
});
