import "server-only";
import { readJsonBody as readBoundedJsonBody } from "@/lib/server/read-json-body";

/**
 * Largest participant request body. An answer with a full interaction log at the schema's caps (5000 camera samples
 * of ~60 bytes, 2000 events of up to ~270 bytes) stays under 1 MB; route handlers have no body limit of their own,
 * and anyone can get a participant cookie from an open study link.
 */
export const MAX_PARTICIPANT_BODY_BYTES = 1024 * 1024;

/** A participant's JSON body (lib/server/read-json-body.ts: streamed size limit, NUL characters refused). */
export function readJsonBody(request: Request, maxBytes: number = MAX_PARTICIPANT_BODY_BYTES): Promise<unknown> {
  return readBoundedJsonBody(request, { maxBytes });
}
