// The participant's data as the browser gets it: the participant API contract's types (lib/participant/api-contract.ts).
export type {
  CurrentQuestion,
  PublicImage,
  PublicItem,
  Session as SessionState,
  SessionUpdate,
  SubmitResult,
} from "@/lib/participant/api-contract";
