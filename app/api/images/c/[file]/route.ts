import { getStoredImage } from "@/lib/server/participant-flow/routes/image";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// A signed link to a stored picture, when no nginx in front answers it (lib/image-link.ts).
export const GET = getStoredImage;
