export { getScene as GET } from "@/lib/server/participant-flow/routes/scene";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
