export { postConsent as POST } from "@/lib/server/participant-api/consent";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
