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
  "Permissions-Policy":
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), fullscreen=(self)",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** HSTS for deployments whose public URL is https (two years; no preload, that is the operator's decision). */
export const HSTS_HEADER = "max-age=63072000; includeSubDomains";

/** CSP for API responses (JSON, CSV): nothing may load, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * CSP for pages. A page rendered per request gets a nonce ('strict-dynamic' lets Next's nonce'd loader pull its
 * chunks). A page prerendered at build time (the participant shell) cannot carry one: it lists the hashes of its inline
 * scripts instead and allows the app's own script files ('self'; without 'strict-dynamic', which would ignore 'self').
 * Styles stay 'unsafe-inline' because React style attributes (recharts, the 3D canvas) cannot carry a nonce and
 * style injection cannot run script. `dev` adds what `next dev` needs (eval for React's debug stacks, HMR socket).
 */
export function buildPageCsp(
  options: ({ nonce: string } | { scriptHashes: readonly string[] }) & { dev: boolean; https: boolean },
): string {
  const { dev, https } = options;
  const scripts =
    "nonce" in options
      ? [`'nonce-${options.nonce}'`, "'strict-dynamic'"]
      : options.scriptHashes.map((h) => `'sha256-${h}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scripts, ...(dev ? ["'unsafe-eval'"] : [])].join(" "),
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

/**
 * True when a segment of the URL's path is not valid percent-encoded UTF-8 (`/s/%FF%FE`, `/api/images/%FF`, a lone
 * `%`): Next's router throws URIError on decoding such a segment, which reached the client as a 500.
 */
export function hasUndecodablePath(rawUrl: string): boolean {
  let path = rawUrl;
  try {
    path = new URL(rawUrl, "http://x").pathname;
  } catch {
    return true;
  }
  for (const segment of path.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a request must be refused as cross-origin, or null. The rule of Go's net/http CrossOriginProtection:
 * safe methods pass; a browser's `Sec-Fetch-Site` must say `same-origin` (or `none`: typed in, bookmarks); without
 * it, an `Origin` must be one of ours; a request with neither header is not from a browser (curl, the CLIs) and
 * carries no ambient browser credentials to abuse, so it passes. SameSite=Lax cookies alone let a same-SITE page
 * (another port or subdomain) post to us; this closes that.
 */
export function crossOriginProblem(
  request: { method: string; secFetchSite: string | null; origin: string | null },
  allowedOrigins: readonly string[],
): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const site = request.secFetchSite?.toLowerCase() ?? null;
  if (site !== null)
    return site === "same-origin" || site === "none" ? null : `cross-origin request refused (Sec-Fetch-Site: ${site})`;
  if (request.origin === null) return null;
  return allowedOrigins.includes(request.origin)
    ? null
    : `cross-origin request refused (Origin: ${request.origin.slice(0, 100)})`;
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

/**
 * "::ffff:1.2.3.4" → "1.2.3.4"; brackets and ports stripped; lower-case; at most 64 characters. An IPv6 address is
 * reduced to its /64 network ("2001:db8:0:1::/64"): one subscriber or host usually holds a whole /64, so counting
 * single IPv6 addresses would give an attacker with one prefix unlimited "addresses" (25 joins from one /64 all
 * admitted where one IPv4 address gets 20).
 */
function normaliseAddress(value: string): string {
  let v = value.toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(":"));
  if (v.startsWith("::ffff:") && /^\d+\.\d+\.\d+\.\d+$/.test(v.slice(7))) v = v.slice(7);
  return (ipv6Network64(v) ?? v).slice(0, 64);
}

/** The /64 network of an IPv6 address ("2001:db8:0:1::/64"), or null when `v` is not one. */
export function ipv6Network64(v: string): string | null {
  const address = v.split("%")[0]!; // a zone id ("fe80::1%eth0") names an interface, not a network
  if (!address.includes(":") || address.split("::").length > 2) return null;
  let tail = address;
  const groups: string[] = [];
  // An embedded IPv4 tail ("::1.2.3.4") is two groups.
  const v4 = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const b = v4.slice(2).map(Number);
    if (b.some((x) => x > 255)) return null;
    tail = `${v4[1]}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, rest] = tail.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = rest === undefined ? [] : rest ? rest.split(":") : [];
  if (rest === undefined ? h.length !== 8 : h.length + t.length > 7) return null;
  groups.push(...h, ...Array<string>(rest === undefined ? 0 : 8 - h.length - t.length).fill("0"), ...t);
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** TRUSTED_PROXY_HOPS: a whole number of proxies, 0–10; unset or empty is 0 (no proxy trusted). */
export function parseTrustedProxyHops(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10)
    throw new Error(`TRUSTED_PROXY_HOPS must be a whole number from 0 to 10, got '${value}'`);
  return n;
}
