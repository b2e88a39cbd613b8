import { NextResponse, type NextRequest } from "next/server";
import {
  API_CSP,
  BASE_SECURITY_HEADERS,
  buildPageCsp,
  crossOriginProblem,
  hasNulByte,
  hasUndecodablePath,
  HSTS_HEADER,
  parseTrustedProxyHops,
} from "@/lib/http-security";

/**
 * Runs before every route (Next 16 "proxy", formerly middleware): security headers and the per-request CSP nonce,
 * NUL bytes or undecodable percent-encodings in the URL → 400, cross-origin state-changing requests → 403, and a client-sent X-Forwarded-For is
 * dropped unless TRUSTED_PROXY_HOPS says proxies set it (Next then fills in the socket address). The route wrappers
 * in lib/server/route.ts repeat the origin check: this file is the first line, not the only one.
 */
export function proxy(request: NextRequest) {
  const publicUrl = process.env.NEXTAUTH_URL;
  const https = publicUrl?.startsWith("https:") ?? false;
  const path = request.nextUrl.pathname;
  const isApi = path.startsWith("/api/");

  const refuse = (status: number, message: string) => {
    const response =
      isApi || request.method !== "GET"
        ? NextResponse.json({ error: { code: status === 400 ? "BAD_REQUEST" : "FORBIDDEN", message } }, { status })
        : new NextResponse(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return withHeaders(response, API_CSP, https);
  };

  if (hasNulByte(request.url)) return refuse(400, "The address contains a NUL character.");
  if (hasUndecodablePath(request.url)) return refuse(400, "The address contains a malformed percent-encoding.");

  const allowedOrigins = [request.nextUrl.origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])];
  const crossOrigin = crossOriginProblem(
    {
      method: request.method,
      secFetchSite: request.headers.get("sec-fetch-site"),
      origin: request.headers.get("origin"),
    },
    allowedOrigins,
  );
  if (crossOrigin) return refuse(403, `${crossOrigin}.`);

  const requestHeaders = new Headers(request.headers);
  if (parseTrustedProxyHops(process.env.TRUSTED_PROXY_HOPS) === 0) requestHeaders.delete("x-forwarded-for");

  if (isApi || path.startsWith("/_next/")) {
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    // Item images set their own, stricter sandbox policy (lib/server/participant-flow/routes/image.ts).
    return withHeaders(response, path.startsWith("/api/images/") ? null : API_CSP, https);
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = buildPageCsp({ nonce, dev: process.env.NODE_ENV === "development", https });
  // Next reads the nonce from the request's CSP header and puts it on its own scripts (dynamic rendering).
  requestHeaders.set("Content-Security-Policy", csp);
  requestHeaders.set("x-nonce", nonce);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp, https);
}

function withHeaders(response: NextResponse, csp: string | null, https: boolean): NextResponse {
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) response.headers.set(name, value);
  if (csp) response.headers.set("Content-Security-Policy", csp);
  if (https) response.headers.set("Strict-Transport-Security", HSTS_HEADER);
  return response;
}

export const config = {
  // Everything except Next's build assets and the two upload routes themselves: a proxy makes Next buffer the request
  // body (proxyClientMaxBodySize, 10 MB, then silently truncated), and imports stream up to 4 GB. Those two get their
  // headers from next.config.ts and the origin/NUL checks from withRole (lib/server/route.ts). Their sub-routes
  // (/api/admin/import/:batchId, /api/admin/models/:runId) take no upload and go through here: an undecodable id
  // fails in Next's router before any handler runs.
  matcher: ["/((?!_next/static|_next/image|api/admin/(?:import|models)/?$).*)"],
};
