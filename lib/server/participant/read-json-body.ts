import "server-only";
import { AppError } from "@/lib/server/errors";

/**
 * Largest participant request body. An answer with a full interaction log at the schema's caps (5000 camera samples
 * of ~60 bytes, 2000 events of up to ~270 bytes) stays under 1 MB; route handlers have no body limit of their own,
 * and anyone can get a participant cookie from an open study link.
 */
export const MAX_PARTICIPANT_BODY_BYTES = 1024 * 1024;

/** Reads a JSON request body of at most `maxBytes` (counted while streaming, not trusted from Content-Length). */
export async function readJsonBody(request: Request, maxBytes: number = MAX_PARTICIPANT_BODY_BYTES): Promise<unknown> {
  const tooLarge = () => new AppError("UNPROCESSABLE", `The request body is larger than ${maxBytes} bytes.`, { field: "body" });
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) throw new AppError("UNPROCESSABLE", "The request has no JSON body.", { field: "body" });
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("UNPROCESSABLE", "The request body is not valid JSON.", { field: "body" });
  }
}
