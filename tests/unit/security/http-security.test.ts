import { describe, expect, it } from "vitest";
import {
  buildPageCsp,
  clientAddressFrom,
  crossOriginProblem,
  hasNulByte,
  hasUndecodablePath,
  ipv6Network64,
  parseTrustedProxyHops,
} from "@/lib/http-security";
import { toSafeLocalPath } from "@/lib/safe-url";

const ORIGINS = ["http://localhost:3000"];

describe("client address", () => {
  it("with no trusted proxy the header is ignored in favour of what Next filled in from the socket", () => {
    // proxy.ts deletes a client-sent header when TRUSTED_PROXY_HOPS is 0; Next then sets it to the socket address.
    expect(clientAddressFrom("127.0.0.1", 0)).toBe("127.0.0.1");
    expect(clientAddressFrom("::ffff:10.1.2.3", 0)).toBe("10.1.2.3");
  });

  it("behind N proxies the client is the N-th entry from the right; entries the client wrote are ignored", () => {
    expect(clientAddressFrom("6.6.6.6, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientAddressFrom("6.6.6.6, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
    expect(clientAddressFrom("[2001:db8::1]:443", 1)).toBe("2001:db8:0:0::/64");
    expect(clientAddressFrom("198.51.100.4:5555", 1)).toBe("198.51.100.4");
    expect(clientAddressFrom(null, 1)).toBe("unknown");
  });

  it("an IPv6 client counts as its /64 network (one subscriber holds a whole /64)", () => {
    // Counted singly, 2001:db8:0:1::1 … ::19 would be 25 separate "addresses", each with its own join limit.
    expect(clientAddressFrom("2001:db8:0:1::1", 0)).toBe("2001:db8:0:1::/64");
    expect(clientAddressFrom("2001:DB8:0:1:ffff:1:2:19", 0)).toBe("2001:db8:0:1::/64");
    expect(clientAddressFrom("2001:db8:0:2::1", 0)).toBe("2001:db8:0:2::/64");
    expect(clientAddressFrom("fe80::1%eth0", 0)).toBe("fe80:0:0:0::/64");
    expect(clientAddressFrom("::1", 0)).toBe("0:0:0:0::/64");
    expect(ipv6Network64("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    expect(ipv6Network64("2001:0db8:0000:0001:0000:0000:0000:0001")).toBe("2001:db8:0:1::/64");
    // Not IPv6 (or malformed): left as it was.
    expect(ipv6Network64("203.0.113.9")).toBeNull();
    expect(ipv6Network64("1::2::3")).toBeNull();
    expect(ipv6Network64("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(ipv6Network64("g::1")).toBeNull();
    expect(clientAddressFrom("unknown", 0)).toBe("unknown");
  });

  it("TRUSTED_PROXY_HOPS is a whole number 0–10", () => {
    expect(parseTrustedProxyHops(undefined)).toBe(0);
    expect(parseTrustedProxyHops("2")).toBe(2);
    expect(() => parseTrustedProxyHops("yes")).toThrow(/whole number/);
    expect(() => parseTrustedProxyHops("-1")).toThrow();
  });
});

describe("same-origin rule", () => {
  it("refuses a same-site page on another port, cross-site posts and foreign origins; allows same-origin, safe methods and non-browser clients", () => {
    expect(
      crossOriginProblem({ method: "POST", secFetchSite: "same-site", origin: "http://localhost:4119" }, ORIGINS),
    ).toMatch(/same-site/);
    expect(
      crossOriginProblem({ method: "DELETE", secFetchSite: "cross-site", origin: "https://evil.example" }, ORIGINS),
    ).toMatch(/cross-site/);
    expect(
      crossOriginProblem({ method: "POST", secFetchSite: null, origin: "http://localhost:4119" }, ORIGINS),
    ).toMatch(/Origin/);
    expect(
      crossOriginProblem({ method: "POST", secFetchSite: "same-origin", origin: "http://localhost:3000" }, ORIGINS),
    ).toBeNull();
    expect(
      crossOriginProblem({ method: "POST", secFetchSite: null, origin: "http://localhost:3000" }, ORIGINS),
    ).toBeNull();
    expect(crossOriginProblem({ method: "GET", secFetchSite: "cross-site", origin: null }, ORIGINS)).toBeNull();
    expect(crossOriginProblem({ method: "POST", secFetchSite: null, origin: null }, ORIGINS)).toBeNull();
  });
});

describe("URL and header helpers", () => {
  it("finds NUL bytes raw or percent-encoded", () => {
    expect(hasNulByte("/s/a%00b")).toBe(true);
    expect(hasNulByte("/api/items?q=%00")).toBe(true);
    expect(hasNulByte("/s/a\0")).toBe(true);
    expect(hasNulByte("/s/a%2500")).toBe(false);
  });

  it("finds path segments that are not percent-encoded UTF-8", () => {
    for (const bad of ["/s/%FF%FE", "/api/images/%FF", "/s/%", "/s/%E0%A4/status", "http://h/admin/items/%C0%AF?x=1"])
      expect(hasUndecodablePath(bad), bad).toBe(true);
    for (const good of ["/s/abc", "/s/%C3%A9t%C3%A9", "/s/a%2Fb", "http://h/api/items?q=%FF", "/"])
      expect(hasUndecodablePath(good), good).toBe(false);
  });

  it("the page CSP carries the nonce, strict-dynamic and frame-ancestors 'none'; eval only in dev; upgrades only over https", () => {
    const prod = buildPageCsp({ nonce: "abc", dev: false, https: true });
    expect(prod).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(prod).toContain("frame-ancestors 'none'");
    expect(prod).toContain("upgrade-insecure-requests");
    expect(prod).not.toContain("unsafe-eval");
    expect(buildPageCsp({ nonce: "abc", dev: true, https: false })).toContain("'unsafe-eval'");
    expect(buildPageCsp({ nonce: "abc", dev: false, https: false })).not.toContain("upgrade-insecure-requests");
  });

  it("sign-in callbacks stay on this origin (no open redirect)", () => {
    expect(toSafeLocalPath("/\\evil.example/x", "/admin")).toBe("/admin");
    expect(toSafeLocalPath("//evil.example/x", "/admin")).toBe("/admin");
    expect(toSafeLocalPath("/\t/evil.example", "/admin")).toBe("/admin");
    expect(toSafeLocalPath("https://evil.example", "/admin")).toBe("/admin");
    expect(toSafeLocalPath("/admin/studies?x=1#h", "/admin")).toBe("/admin/studies?x=1#h");
    expect(toSafeLocalPath(undefined, "/admin")).toBe("/admin");
  });
});
