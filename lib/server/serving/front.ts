import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import {
  API_CSP,
  BASE_SECURITY_HEADERS,
  buildPageCsp,
  clientAddressFrom,
  hasNulByte,
  hasUndecodablePath,
  HSTS_HEADER,
} from "@/lib/http-security";
import { errorResponse } from "@/lib/server/api-response";
import { env } from "@/lib/server/env";
import { isTrustedProxy } from "@/lib/server/proxy-addresses";
import { getHealth, publicHealth } from "@/lib/server/health";
import { LoadShedder, type ShedDecision } from "@/lib/server/load-shed";
import { AddressInFlight } from "@/lib/server/serving/address-in-flight";
import { readRequestBody } from "@/lib/server/serving/request-body";
import { hasStaffSessionCookie, matchParticipantRoute, participantPathRefusal } from "@/lib/server/serving/routes";
import { sendJsonReply, sendWebResponse, frontRequest } from "@/lib/server/serving/node-http";
import type { ParticipantReply } from "@/lib/server/participant-flow/routes";
import type { StaticAssets } from "@/lib/server/serving/static-assets";
import { SESSION_PAGE_PATH, type ParticipantShell } from "@/lib/server/serving/participant-shell";
import { studyLinkNotFound } from "@/lib/server/participant-flow/routes/join";
import { hasInvalidStudySlug } from "@/lib/study-slug";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The headers proxy.ts puts on a response for this path (it runs for every route Next serves). */
export function proxyHeaders(pathname: string, https: boolean): Record<string, string> {
  const isApi = pathname.startsWith("/api/");
  const csp = isApi
    ? pathname.startsWith("/api/images/")
      ? null
      : API_CSP
    : buildPageCsp({ nonce: randomBytes(16).toString("base64"), dev: process.env.NODE_ENV === "development", https });
  return {
    ...BASE_SECURITY_HEADERS,
    ...(csp ? { "Content-Security-Policy": csp } : {}),
    ...(https ? { "Strict-Transport-Security": HSTS_HEADER } : {}),
  };
}

/** How long a health check may take before it says "down" instead of making the load balancer wait. */
const HEALTH_TIMEOUT_MS = 2000;

/** How long a participant request's body may take to arrive, from its headers on; then 408 and the connection closed. */
export const BODY_READ_DEADLINE_MS = 10_000;

function acceptEncoding(req: IncomingMessage): string {
  return String(req.headers["accept-encoding"] ?? "");
}

/** Methods no route of the app answers, refused before anything else (TRACE would echo a request's cookies). */
const REFUSED_METHODS = new Set(["TRACE", "TRACK"]);

function apiError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/**
 * The request target as a path (origin-form). An absolute-form target ("GET http://host/path") is the path when its
 * authority is the Host header's, as RFC 9112 §3.2.2 lets a server accept it, else null: the app answers for its own
 * host only, and redirecting to the named one would make it an open redirect. The scheme's default port, spelled out
 * or not on either side ("http://h:80/" with "Host: h", "http://h/" with "Host: h:80"), is the same authority.
 */
function originFormTarget(rawUrl: string, host: string | undefined): string | null {
  if (rawUrl.startsWith("/")) return rawUrl;
  let target: URL;
  let own: URL;
  try {
    target = new URL(rawUrl);
    if ((target.protocol !== "http:" && target.protocol !== "https:") || !host) return null;
    // The Host header read as an authority of the target's scheme: URL drops a default port on both sides.
    own = new URL(`${target.protocol}//${host}`);
  } catch {
    return null;
  }
  if (own.host !== target.host || own.username || own.password || own.pathname !== "/" || own.search || own.hash)
    return null;
  return `${target.pathname}${target.search}`;
}

/**
 * The custom server's request handler: participant routes (lib/server/serving/routes.ts) and anonymous health checks
 * answered here, everything else handed to Next. Participant work is admitted through the load shedder: when the
 * process is saturated or warming up it answers 503 + Retry-After at once (for a page: a small page that reloads
 * itself after that wait) instead of queueing. A POST's body is read whole first (its route's limit, within
 * `bodyDeadlineMs`), so a client that never finishes its body holds no slot of the shedder; and one client address
 * holds at most `perAddressInFlight` shed-able participant requests at once (429 + Retry-After beyond).
 */
export function createFrontHandler(options: {
  next: NodeHandler;
  shedder: LoadShedder;
  assets?: StaticAssets;
  /** The prerendered participant session page; without it Next renders the page. */
  shell?: ParticipantShell | null;
  perAddressInFlight?: number;
  bodyDeadlineMs?: number;
}): NodeHandler {
  const { next, shedder, assets, shell } = options;
  const https = (env.NEXTAUTH_URL ?? "").startsWith("https:");
  const protocol = "http" as const;
  const perAddress = new AddressInFlight(options.perAddressInFlight ?? env.PARTICIPANT_IN_FLIGHT_PER_ADDRESS);
  const bodyDeadlineMs = options.bodyDeadlineMs ?? BODY_READ_DEADLINE_MS;

  /** 503 (shed) or 429 (this address's bound) with Retry-After: the API's error, or for a page one that reloads itself. */
  const refuse = (
    res: ServerResponse,
    pathname: string,
    method: string,
    status: 503 | 429,
    retryAfterSec: number,
    apiResponse: Response,
  ) => {
    const headers = proxyHeaders(pathname, https);
    if (pathname.startsWith("/api/")) {
      void sendWebResponse(res, apiResponse, headers, method);
    } else {
      const page = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="${retryAfterSec}"><title>One moment</title><p>Many people are starting this study right now. This page reloads itself in a few seconds.</p>`;
      res.writeHead(status, {
        ...headers,
        "Retry-After": String(retryAfterSec),
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
      });
      res.end(page);
    }
  };

  const admit = (res: ServerResponse, pathname: string, method: string): (ShedDecision & { ok: true }) | null => {
    const decision = shedder.tryEnter();
    if (decision.ok) {
      res.once("close", decision.release);
      return decision;
    }
    refuse(res, pathname, method, 503, decision.retryAfterSec, LoadShedder.response(decision));
    return null;
  };

  /** Counts the request against its client address until its response is finished; false (answered 429) at the bound. */
  const enterAddress = (req: IncomingMessage, res: ServerResponse, pathname: string, method: string): boolean => {
    const header = req.headers["x-forwarded-for"];
    const forwarded = env.TRUSTED_PROXY_HOPS > 0 && header ? String(header) : undefined;
    const release = perAddress.tryEnter(
      clientAddressFrom(forwarded ?? req.socket.remoteAddress, env.TRUSTED_PROXY_HOPS),
    );
    if (release) {
      res.once("close", release);
      return true;
    }
    // The body (if any) is not read: the connection closes after the answer.
    res.shouldKeepAlive = false;
    const message = "Too many requests from your network at once; please try again in a moment.";
    refuse(res, pathname, method, 429, 1, apiError(429, "TOO_MANY_REQUESTS", message, { "Retry-After": "1" }));
    return false;
  };

  return async (req, res) => {
    // X-Forwarded-For is believed only from a configured proxy: a client that reaches the app port directly is its
    // socket address, for the per-address bound here and for every handler and page after (they read this header).
    if (env.TRUSTED_PROXY_HOPS > 0 && !isTrustedProxy(env.TRUSTED_PROXY_ADDRESSES, req.socket.remoteAddress)) {
      if (req.socket.remoteAddress) req.headers["x-forwarded-for"] = req.socket.remoteAddress;
      else delete req.headers["x-forwarded-for"];
    }
    const method = req.method ?? "GET";
    let rawUrl = req.url ?? "/";
    if (REFUSED_METHODS.has(method) || (method === "OPTIONS" && rawUrl === "*")) {
      res.shouldKeepAlive = false;
      return sendWebResponse(
        res,
        apiError(405, "METHOD_NOT_ALLOWED", `${method} is not supported.`, { Allow: "GET, HEAD, POST" }),
        proxyHeaders("/", https),
        method,
      );
    }
    const target = originFormTarget(rawUrl, req.headers.host);
    if (target === null) {
      res.shouldKeepAlive = false;
      return sendWebResponse(
        res,
        apiError(400, "BAD_REQUEST", "The request target names another host."),
        proxyHeaders("/", https),
        method,
      );
    }
    // An absolute-form target for this host: what follows (and Next) sees the path, as for any other request.
    if (target !== rawUrl) req.url = rawUrl = target;
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
      const report = await Promise.race([
        getHealth(),
        new Promise<null>((r) => setTimeout(() => r(null), HEALTH_TIMEOUT_MS).unref()),
      ]);
      const body = report ? publicHealth(report) : { status: "down", database: { reachable: false }, migrations: null };
      const response = Response.json(body, {
        status: report?.status === "ok" ? 200 : 503,
        headers: { "Cache-Control": "no-store" },
      });
      return sendWebResponse(res, response, proxyHeaders(pathname, https), method, acceptEncoding(req));
    }

    // /s/<slug>/…: a first segment that is no study slug (a dot segment, %2e%2e, …) is answered 404 here, whatever
    // follows it, so neither the join route nor a page Next renders builds a redirect from it (lib/study-slug.ts).
    if (hasInvalidStudySlug(pathname))
      return sendWebResponse(res, studyLinkNotFound(), proxyHeaders(pathname, https), method);

    // One spelling per participant route: any other is redirected to it (GET) or refused, never handed to Next.
    const refusal = participantPathRefusal(method, pathname);
    if (refusal?.kind === "redirect") {
      res.writeHead(308, {
        ...proxyHeaders(pathname, https),
        Location: `${refusal.location}${q === -1 ? "" : rawUrl.slice(q)}`,
        "Cache-Control": "no-store",
      });
      return void res.end();
    }
    if (refusal?.kind === "not-found")
      return sendWebResponse(
        res,
        apiError(404, "NOT_FOUND", "No such participant route."),
        proxyHeaders(pathname, https),
        method,
      );

    const route = matchParticipantRoute(method, pathname, req.headers.cookie);
    if (!route) {
      if ((method === "GET" || method === "HEAD") && SESSION_PAGE_PATH.test(pathname)) {
        // The session page is a file made at build time: sent at the cost of a static file, never shed (the session
        // it reads next is).
        if (shell) {
          const page = shell.serve(method, acceptEncoding(req), req.headers["if-none-match"], https);
          res.writeHead(page.status, page.headers);
          return void res.end(page.body ?? undefined);
        }
        if (!enterAddress(req, res, pathname, method) || !admit(res, pathname, method)) return;
      }
      // The shell's own route is only its source: served alone it would carry a nonce CSP its scripts do not have.
      if (shell && pathname === "/participant-shell")
        return sendWebResponse(res, studyLinkNotFound(), proxyHeaders(pathname, https), method);
      return next(req, res);
    }
    if (route.perAddress && !enterAddress(req, res, pathname, method)) return;
    let body: Buffer | undefined;
    if (route.maxBodyBytes !== undefined) {
      const read = await readRequestBody(req, { maxBytes: route.maxBodyBytes, deadlineMs: bodyDeadlineMs });
      if (!read.ok) {
        if (read.reason === "aborted") return;
        res.shouldKeepAlive = false;
        const refusal =
          read.reason === "timeout"
            ? apiError(408, "REQUEST_TIMEOUT", `The request body did not arrive within ${bodyDeadlineMs / 1000} s.`)
            : apiError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${route.maxBodyBytes} bytes.`);
        return sendWebResponse(res, refusal, proxyHeaders(pathname, https), method);
      }
      body = read.body;
    }
    const request = frontRequest(req, { trustedProxyHops: env.TRUSTED_PROXY_HOPS, protocol, body });
    if (!request) {
      // A Host header that makes no URL ("a b", "[::1"): the request is malformed, not the server broken.
      return sendWebResponse(
        res,
        apiError(400, "BAD_REQUEST", "The Host header is not a valid host name."),
        proxyHeaders(pathname, https),
        method,
      );
    }
    // Counted against the process's bound only now, its body read: waiting for bytes costs the server nothing.
    if (route.shed && !admit(res, pathname, method)) return;
    let response: ParticipantReply;
    try {
      response = await route.handler(request, route.params);
    } catch (err) {
      if (route.fallBackOnThrow && !res.headersSent) return next(req, res);
      console.error(err);
      response = Response.json(
        { error: { code: "INTERNAL", message: "Something went wrong on the server." } },
        { status: 500 },
      );
    }
    if (!(response instanceof Response)) {
      try {
        return await sendJsonReply(res, response, proxyHeaders(pathname, https), method, acceptEncoding(req));
      } catch (err) {
        // A reply that does not serialise (nothing is written before it is): the handler's error, with the headers.
        if (res.headersSent) throw err;
        response = errorResponse(err);
      }
    }
    await sendWebResponse(res, response, proxyHeaders(pathname, https), method, acceptEncoding(req));
  };
}
