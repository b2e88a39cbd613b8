import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { getPool } from "@/lib/server/dal/pools/get-pool";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/pools/:poolId – a pool, its versions with per-task counts and the studies using them (researcher)
export const GET = withRole<{ poolId: string }>("researcher", async ({ params, user }) =>
  NextResponse.json(await getPool(params.poolId, user)),
);
