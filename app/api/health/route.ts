import { NextResponse } from "next/server";
import { getStaffUser } from "@/lib/server/auth";
import { getHealth, publicHealth } from "@/lib/server/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/health – database reachability and migration state (200 when ok, 503 otherwise). Anonymous callers get the
// state and counts; signed-in staff also the pending/failed migration names, the driver and the database error.
export async function GET() {
  const [report, staff] = await Promise.all([getHealth(), getStaffUser().catch(() => null)]);
  return NextResponse.json(staff ? report : publicHealth(report), {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
