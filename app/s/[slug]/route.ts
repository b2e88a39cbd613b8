export { getJoin as GET } from "@/lib/server/participant-flow/routes/join";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
