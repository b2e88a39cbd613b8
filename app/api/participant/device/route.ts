import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { getParticipantSession } from "@/lib/server/dal/participant/get-session";
import { DeviceInfoSchema } from "@/lib/server/dal/participant/record-consent";
import { screenOutForDevice } from "@/lib/server/dal/participant/device-and-primer";
import { readJsonBody } from "@/lib/server/participant/read-json-body";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse, NO_STORE_JSON } from "@/lib/server/route";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { AppError } from "@/lib/server/errors";
import { deviceAllowed, effectiveDeviceRule } from "@/lib/participant/device-rule";
import { StudyConfigSchema } from "@/lib/study-config";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const DeviceBodySchema = z.object({ device: DeviceInfoSchema });

// POST /api/participant/device – before consent, in a study that takes desktops only: a device the study does not take
// is screened out here (recorded, with the message to return the study); any other device changes nothing.
export async function POST(request: Request) {
  try {
    const { participantId, studyId } = await requireParticipant();
    const { device } = DeviceBodySchema.parse(await readJsonBody(request));
    const study = await withDbRetry(() => db.study.findUnique({ where: { id: studyId }, select: { config: true } }));
    if (!study) throw new AppError("NOT_FOUND", "This study no longer exists.");
    if (!deviceAllowed(effectiveDeviceRule(StudyConfigSchema.parse(study.config)), device)) await screenOutForDevice(participantId, device);
    const session = await getParticipantSession(participantId);
    if (!session) throw new AppError("UNAUTHENTICATED", "This study link has expired for you: please open your study link again.");
    return NextResponse.json(withSignedImageUrls(session, participantId, session.study.timeLimitSec !== null), { headers: NO_STORE_JSON });
  } catch (err) {
    return errorResponse(err);
  }
}
