import "server-only";

/** The participant routes as plain web handlers (Request → Response), for Next's route files and any other server. */
export { getSession } from "@/lib/server/participant-api/session";
export { postConsent } from "@/lib/server/participant-api/consent";
export { postDevice } from "@/lib/server/participant-api/device";
export { postPrimer } from "@/lib/server/participant-api/primer";
export { postShown } from "@/lib/server/participant-api/shown";
export { postAnswer } from "@/lib/server/participant-api/answer";
export { getScene } from "@/lib/server/participant-api/scene";
export { getParticipantImage, imageHandler, IMAGE_RESPONSE_HEADERS } from "@/lib/server/participant-api/image";
export {
  withParticipant,
  withOptionalParticipant,
  type ParticipantHandler,
  type ParticipantIdentity,
} from "@/lib/server/participant-api/with-participant";
export { getJoin } from "@/lib/server/participant-api/join";
