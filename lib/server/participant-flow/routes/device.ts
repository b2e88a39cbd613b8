import "server-only";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { deviceAllowed, effectiveDeviceRule } from "@/lib/participant/device-rule";
import { StudyConfigSchema } from "@/lib/study-config";
import { db } from "@/lib/server/db";
import { screenOutForDevice } from "@/lib/server/participant-flow/device-and-primer";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { AppError } from "@/lib/server/errors";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/**
 * POST /api/participant/device – before consent, in a study that takes desktops only: a device the study does not
 * take is screened out here (recorded, with the message to return the study); any other device changes nothing.
 */
export const postDevice = withParticipant(
  PARTICIPANT_API.device,
  async ({ participant: { participantId, studyId }, body: { device } }) => {
    const study = await db.study.findUnique({ where: { id: studyId }, select: { config: true } });
    if (!study) throw new AppError("NOT_FOUND", "This study no longer exists.");
    if (!deviceAllowed(effectiveDeviceRule(StudyConfigSchema.parse(study.config)), device))
      await screenOutForDevice(participantId, device);
    const session = await getParticipantSession(participantId);
    if (!session)
      throw new AppError("UNAUTHENTICATED", "This study link has expired for you: please open your study link again.");
    return Response.json(
      await withSignedImageUrls(session, { participantId, studyId }, session.study.timeLimitSec !== null),
      {
        headers: NO_STORE_JSON,
      },
    );
  },
);
