import "server-only";
import type {
  AnswerResponse,
  CurrentQuestion,
  PublicItem,
  QuestionClock,
  Session,
  SessionUpdate,
  SubmitResult,
} from "@/lib/participant/api-contract";
import type {
  CurrentQuestionDto,
  ParticipantSessionDto,
  SessionUpdateDto,
} from "@/lib/server/participant-flow/get-session";
import type { PublicItemDto } from "@/lib/server/participant-flow/get-public-item";
import type { RecordResponseResult, SubmitAnswerOutcome } from "@/lib/server/participant-flow/record-response";
import type { QuestionClockDto } from "@/lib/server/participant-flow/question-clock";

/**
 * The data layer's return types are exactly the participant API contract's response types (and its device type the
 * contract's): the browser parses responses with the contract's schemas, which drop unknown fields, so a field added
 * on one side only must fail type-checking here rather than vanish on the way to the browser.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type ContractShapesMatch = [
  Same<ParticipantSessionDto, Session>,
  Same<SessionUpdateDto, SessionUpdate>,
  Same<CurrentQuestionDto, CurrentQuestion>,
  Same<PublicItemDto, PublicItem>,
  Same<RecordResponseResult, SubmitResult>,
  Same<SubmitAnswerOutcome, AnswerResponse>,
  Same<QuestionClockDto, QuestionClock>,
] extends true[]
  ? true
  : never;

const _contractShapesMatch: ContractShapesMatch = true;
