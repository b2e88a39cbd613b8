export { postConsent as POST } from "@/lib/server/participant-flow/routes/consent";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
