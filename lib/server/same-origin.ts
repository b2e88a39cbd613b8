import "server-only";
import { crossOriginProblem } from "@/lib/http-security";
import { env } from "@/lib/server/env";
import { AppError } from "@/lib/server/errors";
import type { RequestLike } from "@/lib/server/request-like";

/**
 * Refuses (403) a state-changing request a browser sent from another origin (lib/http-security.ts has the rule).
 * proxy.ts applies it to every request; routes call it again so the check holds wherever the route is reached.
 */
export function assertSameOrigin(request: RequestLike): void {
  const allowed = [new URL(request.url).origin, ...(env.NEXTAUTH_URL ? [new URL(env.NEXTAUTH_URL).origin] : [])];
  const problem = crossOriginProblem(
    {
      method: request.method,
      secFetchSite: request.headers.get("sec-fetch-site"),
      origin: request.headers.get("origin"),
    },
    allowed,
  );
  if (problem) throw new AppError("FORBIDDEN", `${problem}.`);
}
