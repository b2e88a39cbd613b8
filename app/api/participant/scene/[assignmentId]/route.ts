export { getScene as GET } from "@/lib/server/participant-api/scene";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
