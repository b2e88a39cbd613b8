export { getJoin as GET } from "@/lib/server/participant-api/join";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
