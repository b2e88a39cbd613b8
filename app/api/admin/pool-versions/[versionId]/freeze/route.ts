import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { freezePoolVersion } from "@/lib/server/dal/pools/freeze-pool-version";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /api/admin/pool-versions/:versionId/freeze – make a pool version immutable (admin; idempotent)
export const POST = withRole<{ versionId: string }>("admin", async ({ params, user }) => {
  return NextResponse.json(await freezePoolVersion({ poolVersionId: params.versionId, actorId: user.id }));
});
