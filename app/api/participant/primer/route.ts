export { postPrimer as POST } from "@/lib/server/participant-flow/routes/primer";
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
