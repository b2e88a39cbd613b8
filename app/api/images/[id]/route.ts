import { getStaffUser } from "@/lib/server/auth";
import { imageHandler } from "@/lib/server/participant-flow/routes/image";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Staff previews: next-auth's session is read through Next's request context.
export const GET = imageHandler(async () => (await getStaffUser()) !== null);
