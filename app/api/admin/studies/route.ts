import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { createStudy } from "@/lib/server/dal/studies/save-study";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/studies – the studies the caller may see (own and shared; admins: all) with participant counts (researcher)
export const GET = withRole("researcher", async ({ user }) => NextResponse.json({ studies: await listStudies(user) }));

// POST /api/admin/studies {name, slug, poolVersionId, config} – create a draft study; 422 lists field errors (researcher)
export const POST = withRole("researcher", async ({ request, user }) => {
  return NextResponse.json(await createStudy({ input: await readStaffJsonBody(request), actorId: user.id }), {
    status: 201,
  });
});
