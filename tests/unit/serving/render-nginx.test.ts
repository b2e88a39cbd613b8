import { describe, expect, it } from "vitest";
import { realIpSources, renderNginxConf } from "../../../scripts/render-nginx.mjs";

describe("render-nginx's load balancers (--real-ip-from, NGINX_REAL_IP_FROM)", () => {
  it("takes the option's list, else the environment's, split on spaces and commas", () => {
    expect(realIpSources(["10.0.0.0/8"], "192.0.2.1")).toEqual(["10.0.0.0/8"]);
    expect(realIpSources([], " 10.0.0.0/8, 2001:db8::/32  192.0.2.7 ")).toEqual([
      "10.0.0.0/8",
      "2001:db8::/32",
      "192.0.2.7",
    ]);
    expect(realIpSources([], "")).toEqual([]);
  });

  it("refuses anything but an address or CIDR block: it goes into the config verbatim", () => {
    for (const bad of ["10.0.0.0/8; include /etc/passwd", "example.com", "10.0.0.0/8\n}", "$remote_addr"])
      expect(() => realIpSources([], bad), bad).toThrow(/not an IP address or CIDR block/);
  });

  it("refuses a block that trusts every address (anyone could then set their own X-Forwarded-For)", () => {
    for (const all of ["0.0.0.0/0", "::/0", "10.0.0.0/00"])
      expect(() => realIpSources([all]), all).toThrow(/trusts every address/);
    expect(realIpSources(["0.0.0.0/8", "fc00::/7"])).toEqual(["0.0.0.0/8", "fc00::/7"]);
  });

  it("puts each into set_real_ip_from with X-Forwarded-For as the client's header", () => {
    const conf = renderNginxConf({
      listen: "127.0.0.1:8080",
      upstreams: ["127.0.0.1:3000"],
      appDir: ".",
      tempDir: "/tmp/x",
      imageSecret: "a".repeat(32),
      realIpFrom: realIpSources([], "10.1.0.0/16,2001:db8::/32"),
    });
    expect(conf).toContain("set_real_ip_from 10.1.0.0/16;");
    expect(conf).toContain("set_real_ip_from 2001:db8::/32;");
    expect(conf).toContain("real_ip_header X-Forwarded-For;");
  });
});
