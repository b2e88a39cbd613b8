export { postShown as POST } from "@/lib/server/participant-flow/routes/shown";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
