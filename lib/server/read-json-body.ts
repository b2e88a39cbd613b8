import "server-only";
import { AppError } from "@/lib/server/errors";
import type { RequestLike } from "@/lib/server/request-like";
import { assertSameOrigin } from "@/lib/server/same-origin";

/** Largest staff JSON body: a study config with a 20,000-character consent text or a pool edit with thousands of ids is far below. */
export const MAX_STAFF_BODY_BYTES = 1024 * 1024;

export interface ReadJsonBodyOptions {
  maxBytes: number;
  /**
   * Require `Content-Type: application/json`. A browser can only send that type cross-origin after a CORS preflight,
   * which these routes never grant, so cross-site HTML forms are kept out as well.
   */
  requireJsonType?: boolean;
}

/**
 * Reads a JSON request body (same-origin requests only, lib/server/same-origin.ts) of at most `maxBytes` (counted while streaming, not trusted from Content-Length, so a
 * 100 MB body is never buffered whole). A NUL character anywhere in a string or key is refused with 422:
 * PostgreSQL text and jsonb cannot store it, so it would otherwise surface as a 500.
 */
export async function readJsonBody(request: RequestLike, options: ReadJsonBodyOptions): Promise<unknown> {
  // Every JSON-reading route changes state: the same-origin rule comes with reading the body.
  assertSameOrigin(request);
  const { maxBytes } = options;
  if (options.requireJsonType) {
    const type = request.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/json"))
      throw new AppError("BAD_REQUEST", "Send the request body as application/json.");
  }
  const text = (await readBodyBytes(request, maxBytes)).toString("utf8");
  let nulAt: string | null = null;
  let parsed: unknown;
  try {
    // JSON can only carry a NUL as the escape \u0000 (a raw control character is invalid JSON): a body without that
    // escape is parsed without the reviver, which costs several times the parse.
    parsed = !text.includes("\\u0000")
      ? JSON.parse(text)
      : JSON.parse(text, function (key, value: unknown) {
          if (nulAt === null && (key.includes("\0") || (typeof value === "string" && value.includes("\0"))))
            nulAt = key;
          return value;
        });
  } catch {
    throw new AppError("UNPROCESSABLE", "The request body is not valid JSON.", { field: "body" });
  }
  if (nulAt !== null)
    throw new AppError(
      "UNPROCESSABLE",
      `The request body contains a NUL character (in '${String(nulAt).slice(0, 40)}').`,
      { field: nulAt },
    );
  return parsed;
}

/** The JSON body of a staff API request: application/json only, at most MAX_STAFF_BODY_BYTES, no NUL characters. */
export function readStaffJsonBody(request: Request): Promise<unknown> {
  return readJsonBody(request, { maxBytes: MAX_STAFF_BODY_BYTES, requireJsonType: true });
}

/** A participant's JSON body: at most `maxBytes` (the route's limit, PARTICIPANT_BODY_LIMITS), no NUL characters. */
export function readParticipantJsonBody(request: RequestLike, maxBytes: number): Promise<unknown> {
  return readJsonBody(request, { maxBytes });
}

/** The raw body, at most `maxBytes` (413 beyond; counted while streaming, Content-Length is only a shortcut). */
export async function readBodyBytes(request: RequestLike, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes.`, { field: "body" });
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (request.bodyBytes) {
    if (request.bodyBytes.byteLength > maxBytes) throw tooLarge();
    return request.bodyBytes;
  }
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
  return Buffer.concat(chunks);
}

/** A multipart/form-data body of at most `maxBytes` (same-origin only); text fields with a NUL character are refused. */
export async function readFormBody(request: Request, maxBytes: number): Promise<FormData> {
  assertSameOrigin(request);
  const bytes = await readBodyBytes(request, maxBytes);
  const form = await new Response(new Uint8Array(bytes), {
    headers: { "content-type": request.headers.get("content-type") ?? "" },
  })
    .formData()
    .catch(() => {
      throw new AppError("BAD_REQUEST", "Send the request body as multipart/form-data.");
    });
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && (value.includes("\0") || name.includes("\0")))
      throw new AppError("UNPROCESSABLE", `The form field '${name.slice(0, 40)}' contains a NUL character.`, {
        field: name,
      });
  }
  return form;
}
