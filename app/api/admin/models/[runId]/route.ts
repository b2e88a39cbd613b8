import { NextResponse } from "next/server";
import { z } from "zod";
import { deleteModelRun } from "@/lib/server/dal/models/delete-model-run";
import { withRole } from "@/lib/server/route";

export const runtime = "nodejs";

// DELETE /api/admin/models/:runId – remove an imported run and its predictions (admin only; audited)
export const DELETE = withRole<{ runId: string }>("admin", async ({ params, user }) => {
  const runId = z.string().min(1).max(64).parse(params.runId);
  return NextResponse.json(await deleteModelRun({ runId, actorId: user.id }));
});
