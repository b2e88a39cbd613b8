import "server-only";
import { MAX_STAFF_BODY_BYTES, readJsonBody as readBoundedJsonBody } from "@/lib/server/read-json-body";

/** The JSON body of a staff API request: application/json only, at most MAX_STAFF_BODY_BYTES, no NUL characters. */
export function readJsonBody(request: Request): Promise<unknown> {
  return readBoundedJsonBody(request, { maxBytes: MAX_STAFF_BODY_BYTES, requireJsonType: true });
}
