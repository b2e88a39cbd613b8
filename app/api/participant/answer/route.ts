export { postAnswer as POST } from "@/lib/server/participant-api/answer";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
