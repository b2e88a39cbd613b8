export { postAnswer as POST } from "@/lib/server/participant-flow/routes/answer";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
