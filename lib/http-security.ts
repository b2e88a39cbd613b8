/**
 * HTTP-level protections shared by proxy.ts (every request) and the route wrappers in lib/server/route.ts: security
 * headers, the Content-Security-Policy with a per-request nonce, NUL bytes in URLs, the same-origin rule for
 * state-changing requests and the client address behind trusted proxies. Pure: settings come in as arguments.
 */

/** Headers every response gets (pages, APIs, static files). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  // Nothing in the app uses these; fullscreen stays available to the app itself (3D view).
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), fullscreen=(self)",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** HSTS for deployments whose public URL is https (two years; no preload, that is the operator's decision). */
export const HSTS_HEADER = "max-age=63072000; includeSubDomains";

/** CSP for API responses (JSON, CSV): nothing may load, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * CSP for pages. Scripts need the request's nonce ('strict-dynamic' lets Next's nonce'd loader pull its chunks);
 * styles stay 'unsafe-inline' because React style attributes (recharts, the 3D canvas) cannot carry a nonce and
 * style injection cannot run script. `dev` adds what `next dev` needs (eval for React's debug stacks, HMR socket).
 */
export function buildPageCsp(options: { nonce: string; dev: boolean; https: boolean }): string {
  const { nonce, dev, https } = options;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** True when the raw request target carries a NUL byte (literally or as %00) in its path or query. */
export function hasNulByte(rawUrl: string): boolean {
  return rawUrl.includes("\0") || /%00/i.test(rawUrl);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a request must be refused as cross-origin, or null. The rule of Go's net/http CrossOriginProtection:
 * safe methods pass; a browser's `Sec-Fetch-Site` must say `same-origin` (or `none`: typed in, bookmarks); without
 * it, an `Origin` must be one of ours; a request with neither header is not from a browser (curl, the CLIs) and
 * carries no ambient browser credentials to abuse, so it passes. SameSite=Lax cookies alone let a same-SITE page
 * (another port or subdomain) post to us; this closes that.
 */
export function crossOriginProblem(request: { method: string; secFetchSite: string | null; origin: string | null }, allowedOrigins: readonly string[]): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const site = request.secFetchSite?.toLowerCase() ?? null;
  if (site !== null) return site === "same-origin" || site === "none" ? null : `cross-origin request refused (Sec-Fetch-Site: ${site})`;
  if (request.origin === null) return null;
  return allowedOrigins.includes(request.origin) ? null : `cross-origin request refused (Origin: ${request.origin.slice(0, 100)})`;
}

/**
 * The client's address. With `trustedProxyHops` = 0 the app is reached directly and X-Forwarded-For is not
 * trusted (proxy.ts drops a client-sent one, so Next fills in the socket address); with N > 0 each of the N
 * proxies in front appends the address it saw, so the client is the N-th entry from the right. Entries further
 * left were written by the client and are ignored.
 */
export function clientAddressFrom(forwardedFor: string | null | undefined, trustedProxyHops: number): string {
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return "unknown";
  const hops = Math.max(1, Math.floor(trustedProxyHops));
  const entry = entries[Math.max(0, entries.length - hops)]!;
  return normaliseAddress(entry);
}

/** "::ffff:1.2.3.4" → "1.2.3.4"; brackets and ports stripped; lower-case; at most 64 characters. */
function normaliseAddress(value: string): string {
  let v = value.toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(":"));
  if (v.startsWith("::ffff:") && /^\d+\.\d+\.\d+\.\d+$/.test(v.slice(7))) v = v.slice(7);
  return v.slice(0, 64);
}

/** TRUSTED_PROXY_HOPS: a whole number of proxies, 0–10; unset or empty is 0 (no proxy trusted). */
export function parseTrustedProxyHops(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10) throw new Error(`TRUSTED_PROXY_HOPS must be a whole number from 0 to 10, got '${value}'`);
  return n;
}
