export { postPrimer as POST } from "@/lib/server/participant-api/primer";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
