export { getSession as GET } from "@/lib/server/participant-api/session";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
