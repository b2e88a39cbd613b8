import "server-only";
import { requireRole, type StaffRole, type StaffUser } from "@/lib/server/auth";
import { AppError } from "@/lib/server/errors";
import { errorResponse } from "@/lib/server/api-response";
import { hasNulByte, hasUndecodablePath } from "@/lib/http-security";
import { assertSameOrigin } from "@/lib/server/same-origin";

type RouteContext<P> = { params: Promise<P> };

export { errorResponse, NO_STORE_JSON } from "@/lib/server/api-response";

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
      if (hasUndecodablePath(request.url))
        throw new AppError("BAD_REQUEST", "The address contains a malformed percent-encoding.");
      assertSameOrigin(request);
      const user = await requireRole(role);
      return await handler({ request, params: await context.params, user });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
