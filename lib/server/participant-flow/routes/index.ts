import "server-only";

/** The participant routes as plain web handlers (Request → Response), for Next's route files and any other server. */
export { getSession } from "@/lib/server/participant-flow/routes/session";
export { postConsent } from "@/lib/server/participant-flow/routes/consent";
export { postDevice } from "@/lib/server/participant-flow/routes/device";
export { postPrimer } from "@/lib/server/participant-flow/routes/primer";
export { postShown } from "@/lib/server/participant-flow/routes/shown";
export { postAnswer } from "@/lib/server/participant-flow/routes/answer";
export { getScene } from "@/lib/server/participant-flow/routes/scene";
export {
  getParticipantImage,
  getStoredImage,
  imageHandler,
  IMAGE_RESPONSE_HEADERS,
} from "@/lib/server/participant-flow/routes/image";
export {
  withParticipant,
  withOptionalParticipant,
  replyResponse,
  type JsonReply,
  type ParticipantHandler,
  type ParticipantIdentity,
  type ParticipantReply,
} from "@/lib/server/participant-flow/routes/with-participant";
export { getJoin } from "@/lib/server/participant-flow/routes/join";
