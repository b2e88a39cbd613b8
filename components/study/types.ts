// The participant DTOs, shared with the server by type only (erased at build time; no server code reaches the client).
export type { CurrentQuestionDto as CurrentQuestion, ParticipantSessionDto as SessionState, SessionUpdateDto as SessionUpdate } from "@/lib/server/dal/participant/get-session";
export type { PublicItemDto } from "@/lib/server/dal/participant/get-public-item";
export type { RecordResponseResult as SubmitResult } from "@/lib/server/dal/scoring/record-response";

/** One image of an item as the participant's browser knows it: an opaque id and a caption. */
export interface PublicImage {
  id: string;
  position: number;
  caption: string;
  /** A signed address from the server (untimed studies); absent: /api/images/<id>. */
  url?: string;
}
