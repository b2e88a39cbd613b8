export { getSession as GET } from "@/lib/server/participant-flow/routes/session";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
