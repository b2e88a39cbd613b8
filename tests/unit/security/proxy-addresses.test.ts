import { describe, expect, it } from "vitest";
import { isTrustedProxy, parseTrustedProxyAddresses } from "@/lib/server/proxy-addresses";

describe("TRUSTED_PROXY_ADDRESSES", () => {
  it("defaults to loopback, IPv4-mapped included", () => {
    const list = parseTrustedProxyAddresses(undefined);
    for (const peer of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])
      expect(isTrustedProxy(list, peer)).toBe(true);
    for (const peer of ["10.0.0.1", "::2", "::ffff:10.0.0.1", "", undefined])
      expect(isTrustedProxy(list, peer)).toBe(false);
  });

  it("takes addresses and CIDR ranges of both families", () => {
    const list = parseTrustedProxyAddresses(" 10.0.0.5 , 172.18.0.0/16,fd00::/8 ");
    expect(isTrustedProxy(list, "10.0.0.5")).toBe(true);
    expect(isTrustedProxy(list, "10.0.0.6")).toBe(false);
    expect(isTrustedProxy(list, "172.18.44.2")).toBe(true);
    expect(isTrustedProxy(list, "::ffff:172.18.0.9")).toBe(true);
    expect(isTrustedProxy(list, "fd12::1")).toBe(true);
    expect(isTrustedProxy(list, "127.0.0.1")).toBe(false);
  });

  it("refuses what is not an address or range", () => {
    for (const bad of ["localhost", "10.0.0.0/33", "10.0.0.0/8/1", "::1/129", "10.0.0.0/x", "300.1.1.1"])
      expect(() => parseTrustedProxyAddresses(bad), bad).toThrow(/TRUSTED_PROXY_ADDRESSES/);
  });

  it("answers the same for a peer seen before, per list, and past the remembered peers' bound", () => {
    const loopback = parseTrustedProxyAddresses(undefined);
    const lan = parseTrustedProxyAddresses("10.0.0.0/8");
    for (let round = 0; round < 2; round++) {
      expect(isTrustedProxy(loopback, "127.0.0.1")).toBe(true);
      expect(isTrustedProxy(lan, "127.0.0.1")).toBe(false);
      expect(isTrustedProxy(lan, "10.1.2.3")).toBe(true);
      expect(isTrustedProxy(loopback, "10.1.2.3")).toBe(false);
    }
    // 5,000 distinct peers (more than are remembered): each still gets its own answer.
    for (let i = 0; i < 5000; i++) {
      const peer = `10.${(i >> 8) & 255}.${i & 255}.7`;
      expect(isTrustedProxy(lan, peer)).toBe(true);
      expect(isTrustedProxy(lan, `::ffff:11.${(i >> 8) & 255}.${i & 255}.7`)).toBe(false);
    }
    expect(isTrustedProxy(lan, "10.0.0.1")).toBe(true);
  });
});
