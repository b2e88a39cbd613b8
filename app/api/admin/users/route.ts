import { NextResponse } from "next/server";
import { withRole } from "@/lib/server/route";
import { listUsers } from "@/lib/server/dal/users/list-users";
import { saveUser } from "@/lib/server/dal/users/save-user";
import { readStaffJsonBody } from "@/lib/server/read-json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/users – staff accounts (admin)
export const GET = withRole("admin", async () => NextResponse.json({ users: await listUsers() }));

// POST /api/admin/users {email, role, password?} – create a staff account; a generated password is returned once (admin)
export const POST = withRole("admin", async ({ request, user }) => {
  const result = await saveUser({ input: await readStaffJsonBody(request), actorId: user.id });
  return NextResponse.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
});
