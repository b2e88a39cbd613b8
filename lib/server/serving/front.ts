import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { API_CSP, BASE_SECURITY_HEADERS, buildPageCsp, hasNulByte, hasUndecodablePath, HSTS_HEADER } from "@/lib/http-security";
import { env } from "@/lib/server/env";
import { getHealth, publicHealth } from "@/lib/server/health";
import { LoadShedder, type ShedDecision } from "@/lib/server/load-shed";
import { hasStaffSessionCookie, matchParticipantRoute } from "@/lib/server/serving/routes";
import { sendWebResponse, toWebRequest } from "@/lib/server/serving/node-http";
import type { StaticAssets } from "@/lib/server/serving/static-assets";
import { studyLinkNotFound } from "@/lib/server/participant-api/join";
import { hasInvalidStudySlug } from "@/lib/study-slug";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The headers proxy.ts puts on a response for this path (it runs for every route Next serves). */
export function proxyHeaders(pathname: string, https: boolean): Record<string, string> {
  const isApi = pathname.startsWith("/api/");
  const csp = isApi ? (pathname.startsWith("/api/images/") ? null : API_CSP) : buildPageCsp({ nonce: randomBytes(16).toString("base64"), dev: false, https });
  return { ...BASE_SECURITY_HEADERS, ...(csp ? { "Content-Security-Policy": csp } : {}), ...(https ? { "Strict-Transport-Security": HSTS_HEADER } : {}) };
}

/** How long a health check may take before it says "down" instead of making the load balancer wait. */
const HEALTH_TIMEOUT_MS = 2000;

/**
 * The custom server's request handler: participant routes (lib/server/serving/routes.ts) and anonymous health checks
 * answered here, everything else handed to Next. Participant work is admitted through the load shedder: when the
 * process is saturated or warming up it answers 503 + Retry-After at once (for a page: a small page that reloads
 * itself after that wait) instead of queueing.
 */
export function createFrontHandler(options: { next: NodeHandler; shedder: LoadShedder; assets?: StaticAssets }): NodeHandler {
  const { next, shedder, assets } = options;
  const https = (env.NEXTAUTH_URL ?? "").startsWith("https:");
  const protocol = "http" as const;

  const admit = (res: ServerResponse, pathname: string, method: string): (ShedDecision & { ok: true }) | null => {
    const decision = shedder.tryEnter();
    if (decision.ok) {
      res.once("close", decision.release);
      return decision;
    }
    const headers = proxyHeaders(pathname, https);
    if (pathname.startsWith("/api/")) {
      void sendWebResponse(res, LoadShedder.response(decision), headers, method);
    } else {
      const page = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="${decision.retryAfterSec}"><title>One moment</title><p>Many people are starting this study right now. This page reloads itself in a few seconds.</p>`;
      res.writeHead(503, { ...headers, "Retry-After": String(decision.retryAfterSec), "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(page);
    }
    return null;
  };

  return async (req, res) => {
    const method = req.method ?? "GET";
    const rawUrl = req.url ?? "/";
    // A NUL or malformed escape in the address: proxy.ts's own refusal (Next), byte for byte.
    if (hasNulByte(rawUrl) || hasUndecodablePath(rawUrl)) return next(req, res);
    const q = rawUrl.indexOf("?");
    const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);

    if (assets && pathname.startsWith("/_next/static/")) {
      const asset = await assets.serve(pathname, method, String(req.headers["accept-encoding"] ?? ""));
      if (!asset) return next(req, res);
      res.writeHead(asset.status, asset.headers);
      res.end(asset.body ?? undefined);
      return;
    }

    if (pathname === "/api/health" && method === "GET" && !hasStaffSessionCookie(req.headers.cookie)) {
      const report = await Promise.race([getHealth(), new Promise<null>((r) => setTimeout(() => r(null), HEALTH_TIMEOUT_MS).unref())]);
      const body = report ? publicHealth(report) : { status: "down", database: { reachable: false }, migrations: null };
      const response = Response.json(body, { status: report?.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
      return sendWebResponse(res, response, proxyHeaders(pathname, https), method);
    }

    // /s/<slug>/…: a first segment that is no study slug (a dot segment, %2e%2e, …) is answered 404 here, whatever
    // follows it, so neither the join route nor a page Next renders builds a redirect from it (lib/study-slug.ts).
    if (hasInvalidStudySlug(pathname)) return sendWebResponse(res, studyLinkNotFound(), proxyHeaders(pathname, https), method);

    const route = matchParticipantRoute(method, pathname, req.headers.cookie);
    if (!route) {
      // The session page (Next renders it): shed too, it is a participant's heaviest request.
      if (method === "GET" && /^\/s\/[^/]+\/session$/.test(pathname) && !admit(res, pathname, method)) return;
      return next(req, res);
    }
    let request: Request;
    try {
      request = toWebRequest(req, { trustedProxyHops: env.TRUSTED_PROXY_HOPS, protocol });
    } catch {
      // A Host header that makes no URL ("a b", "[::1"): the request is malformed, not the server broken.
      const bad = Response.json({ error: { code: "BAD_REQUEST", message: "The Host header is not a valid host name." } }, { status: 400, headers: { "Cache-Control": "no-store" } });
      return sendWebResponse(res, bad, proxyHeaders(pathname, https), method);
    }
    if (route.shed && !admit(res, pathname, method)) return;
    let response: Response;
    try {
      response = await route.handler(request, { params: route.params });
    } catch (err) {
      if (route.fallBackOnThrow && !res.headersSent) return next(req, res);
      console.error(err);
      response = Response.json({ error: { code: "INTERNAL", message: "Something went wrong on the server." } }, { status: 500 });
    }
    await sendWebResponse(res, response, proxyHeaders(pathname, https), method);
  };
}
