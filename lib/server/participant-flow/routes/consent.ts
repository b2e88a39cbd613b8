import "server-only";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { acceptConsent, recordConsent } from "@/lib/server/participant-flow/record-consent";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { requestClientAddress } from "@/lib/server/client-address";
import { AppError } from "@/lib/server/errors";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/** When to retry a start refused by the per-address share: reservations of unanswered starts lapse within the first-answer window. */
const ADDRESS_RETRY_SEC = 120;

/** POST /api/participant/consent – accept (assigns the items) or decline; answers with the new session. */
export const postConsent = withParticipant(
  PARTICIPANT_API.consent,
  async ({ request, participant: { participantId, studyId }, body }) => {
    if (body.accept) {
      const { admitted, result } = await acceptConsent(
        participantId,
        studyId,
        requestClientAddress(request),
        body.device,
      );
      if (!admitted.ok)
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `Too many people have started this study from your network address (a shared connection?) in the last few minutes. Please try again in ${admitted.retryAfterSec} seconds.`,
          { retryAfterSec: admitted.retryAfterSec },
        );
      if (result?.notStarted === "address_share") {
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `Several people on your network address (a shared connection?) are taking this study right now, and it lets one address hold only a few places at once. Please try again in ${ADDRESS_RETRY_SEC / 60} minutes.`,
          { retryAfterSec: ADDRESS_RETRY_SEC },
        );
      }
    } else {
      await recordConsent(participantId, false, null);
    }
    const session = await getParticipantSession(participantId);
    // A never-consented participant can be removed by the per-study bound (docs/security.md): ask for the link again.
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
