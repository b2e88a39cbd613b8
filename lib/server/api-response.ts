import "server-only";
import { ZodError } from "zod";
import { toErrorResponse } from "@/lib/server/errors";

/**
 * Headers of the participant's JSON responses: never cached, and not gzipped by the server (`no-transform` makes
 * Next's compression skip them): a few hundred bytes to a few kB per answer, where zlib was ~5 % of an instance's CPU
 * under bench:load (no-transform asks proxies not to compress them either).
 */
export const NO_STORE_JSON = { "Cache-Control": "no-store, no-transform" } as const;

/**
 * Turns thrown errors into JSON responses: AppError → its status, ZodError → 422 with the issues, else 500. A plain
 * web Response, so handlers run the same under Next and under any other server in front of them.
 */
export function errorResponse(err: unknown): Response {
  if (err instanceof ZodError) {
    const details = err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    return Response.json({ error: { code: "UNPROCESSABLE", message: "Invalid request.", details } }, { status: 422 });
  }
  const { status, body } = toErrorResponse(err);
  // A 429 says when to come back in the header clients and proxies read, not only in the body.
  const retryAfter =
    status === 429 ? (body.error.details as { retryAfterSec?: unknown } | undefined)?.retryAfterSec : undefined;
  const headers =
    typeof retryAfter === "number" ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) } : undefined;
  return Response.json(body, { status, headers });
}
