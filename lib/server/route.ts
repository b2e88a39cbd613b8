import "server-only";
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { requireRole, type StaffRole, type StaffUser } from "@/lib/server/auth";
import { AppError, toErrorResponse } from "@/lib/server/errors";
import { hasNulByte, hasUndecodablePath } from "@/lib/http-security";
import { assertSameOrigin } from "@/lib/server/same-origin";

type RouteContext<P> = { params: Promise<P> };

/**
 * Headers of the participant's JSON responses: never cached, and not gzipped by the server (`no-transform` makes
 * Next's compression skip them): a few hundred bytes to a few kB per answer, where zlib costs ~5 % of an instance's CPU
 * under bench:load (no-transform asks proxies not to compress them either).
 */
export const NO_STORE_JSON = { "Cache-Control": "no-store, no-transform" } as const;

/** Turns thrown errors into JSON responses: AppError → its status, ZodError → 422 with the issues, else 500. */
export function errorResponse(err: unknown): NextResponse {
  if (err instanceof ZodError) {
    const details = err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    return NextResponse.json({ error: { code: "UNPROCESSABLE", message: "Invalid request.", details } }, { status: 422 });
  }
  const { status, body } = toErrorResponse(err);
  // A 429 says when to come back in the header clients and proxies read, not only in the body.
  const retryAfter = status === 429 ? (body.error.details as { retryAfterSec?: unknown } | undefined)?.retryAfterSec : undefined;
  const headers = typeof retryAfter === "number" ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) } : undefined;
  return NextResponse.json(body, { status, headers });
}

/**
 * Wraps a staff API route: refuses NUL bytes in the URL (400) and cross-origin state-changing requests (403), checks the role on the server (401 anonymous, 403 wrong role) before the handler runs,
 * and maps errors to JSON. Admins may call every researcher route.
 */
export function withRole<P = Record<string, never>>(
  role: StaffRole,
  handler: (args: { request: Request; params: P; user: StaffUser }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      if (hasNulByte(request.url)) throw new AppError("BAD_REQUEST", "The address contains a NUL character.");
      if (hasUndecodablePath(request.url)) throw new AppError("BAD_REQUEST", "The address contains a malformed percent-encoding.");
      assertSameOrigin(request);
      const user = await requireRole(role);
      return await handler({ request, params: await context.params, user });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
