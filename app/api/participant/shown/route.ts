export { postShown as POST } from "@/lib/server/participant-api/shown";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
