import { NextResponse } from "next/server";
import { z } from "zod";
import { withRole } from "@/lib/server/route";
import { TaskIdSchema } from "@/lib/tasks/types";
import { toQueryRecord } from "@/lib/pools/item-filter";
import { listPoolVersionItems } from "@/lib/server/dal/pools/list-pool-version-items";
import { editPoolVersion } from "@/lib/server/dal/pools/edit-pool-version";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const QuerySchema = z.object({ task: TaskIdSchema.optional(), page: z.coerce.number().int().min(1).default(1) });

// GET /api/admin/pool-versions/:versionId/items?task=&page= – the items of a pool version (researcher)
export const GET = withRole<{ versionId: string }>("researcher", async ({ request, params }) => {
  const query = QuerySchema.parse(toQueryRecord(new URL(request.url).searchParams));
  return NextResponse.json(
    await listPoolVersionItems({ poolVersionId: params.versionId, taskId: query.task, page: query.page }),
  );
});

// PATCH /api/admin/pool-versions/:versionId/items {addItemIds, removeItemIds} – edit; a frozen or used version
// is never changed: the edit creates the next version (admin)
export const PATCH = withRole<{ versionId: string }>("admin", async ({ request, params, user }) => {
  return NextResponse.json(
    await editPoolVersion({
      poolVersionId: params.versionId,
      edit: await readStaffJsonBody(request),
      actorId: user.id,
    }),
  );
});
