export { postDevice as POST } from "@/lib/server/participant-api/device";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
