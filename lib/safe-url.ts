/**
 * Link targets the app sends a browser to (a study's completion and return URLs). Only http(s): a `javascript:` or
 * `data:` URL would run script in the app's origin with the visitor's session. Parsed with the
 * WHATWG URL parser, the one the browser uses when it navigates, so tabs, newlines and leading spaces cannot hide a
 * scheme from this check.
 */
export const SAFE_URL_PROTOCOLS = ["https:", "http:"] as const;

/** True when `value` is an absolute http: or https: URL. */
export function isSafeHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (SAFE_URL_PROTOCOLS as readonly string[]).includes(url.protocol);
}

/** `value` when it is a safe http(s) URL, else null (for the browser's re-check before navigating). */
export function toSafeHttpUrl(value: string | null | undefined): string | null {
  return value && isSafeHttpUrl(value) ? value : null;
}

const LOCAL_BASE = "http://local.invalid";

/**
 * A same-origin path to go to after signing in, or `fallback`. Browsers read `\` as `/`, so `/\evil.example/x`
 * (an open redirect) is really `//evil.example/x`, another host; any backslash, control character or scheme is refused,
 * and the result must resolve to our own origin.
 */
export function toSafeLocalPath(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value))
    return fallback;
  let url: URL;
  try {
    url = new URL(value, LOCAL_BASE);
  } catch {
    return fallback;
  }
  return url.origin === LOCAL_BASE ? `${url.pathname}${url.search}${url.hash}` : fallback;
}
