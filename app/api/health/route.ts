import { NextResponse } from "next/server";
import { getHealth } from "@/lib/server/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/health – database reachability and migration state (200 when ok, 503 otherwise)
export async function GET() {
  const report = await getHealth();
  return NextResponse.json(report, { status: report.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
