export { postDevice as POST } from "@/lib/server/participant-flow/routes/device";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
