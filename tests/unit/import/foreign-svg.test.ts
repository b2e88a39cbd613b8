import { describe, expect, it } from "vitest";
import { findSvgReferenceProblem, MAX_RASTER_SIDE_PX, rasterizeForeignSvg } from "@/lib/import/foreign-svg";
import { sniffImageMime } from "@/lib/import/image-refs";

const SVG_NS = "http://www.w3.org/2000/svg";
const pngText = (png: Uint8Array) => Buffer.from(png).toString("latin1");

/** Three payloads that bypass a text deny-list (namespaced script, entity-encoded schemes), as an attacker would send them. */
const BYPASSES = {
  namespacedScript: `<svg xmlns="${SVG_NS}" xmlns:x="${SVG_NS}" width="20" height="20"><x:script>alert(document.domain)</x:script><rect width="20" height="20" fill="#000"/></svg>`,
  entityJavascriptLink: `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20"><a xlink:href="&#106;avascript:alert(1)"><rect width="20" height="20"/></a></svg>`,
  entityHttpsImage: `<svg xmlns="${SVG_NS}" width="20" height="20"><image href="&#104;ttps://evil.example/beacon.png" width="20" height="20"/></svg>`,
};

describe("foreign SVG", () => {
  it("the namespaced <x:script> bypass becomes pixels: the PNG has no script text and no SVG markup", () => {
    const r = rasterizeForeignSvg(Buffer.from(BYPASSES.namespacedScript));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(sniffImageMime(r.png)).toBe("image/png");
    expect(pngText(r.png)).not.toContain("alert");
    expect(pngText(r.png)).not.toContain("<svg");
    expect([r.widthPx, r.heightPx]).toEqual([20, 20]);
  });

  it("an entity-encoded javascript: link is decoded by the XML parser and refused", () => {
    expect(findSvgReferenceProblem(BYPASSES.entityJavascriptLink)).toMatch(
      /<a> at line 1 references 'javascript:alert\(1\)'/,
    );
  });

  it("an entity-encoded https: image (an external load) is decoded and refused", () => {
    expect(findSvgReferenceProblem(BYPASSES.entityHttpsImage)).toMatch(
      /<image> at line 1 references 'https:\/\/evil\.example\/beacon\.png'/,
    );
  });

  it("a local file path is refused (resvg would read and embed the file)", () => {
    expect(findSvgReferenceProblem(`<svg xmlns="${SVG_NS}"><image href="/etc/ssl/certs/x.png"/></svg>`)).toMatch(
      /references '\/etc\/ssl\/certs\/x\.png'/,
    );
    expect(
      findSvgReferenceProblem(`<svg xmlns="${SVG_NS}"><image href="data:image/svg+xml;base64,PHN2Zy8+"/></svg>`),
    ).toMatch(/references 'data:image\/svg\+xml/);
  });

  it("entity declarations and malformed XML are refused; fragments and embedded PNGs are allowed", () => {
    expect(
      findSvgReferenceProblem(`<!DOCTYPE svg [<!ENTITY a "&#60;image href='/x'/>">]><svg xmlns="${SVG_NS}">&a;</svg>`),
    ).toBe("declares XML entities");
    expect(findSvgReferenceProblem(`<svg xmlns="${SVG_NS}"><rect></svg>`)).toMatch(/^not well-formed XML/);
    expect(
      findSvgReferenceProblem(
        `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><circle id="c" r="2"/></defs><use xlink:href="#c"/><image href="data:image/png;base64,iVBORw0KGgo="/></svg>`,
      ),
    ).toBeNull();
  });

  it("a huge declared size is scaled down to the cap", () => {
    const r = rasterizeForeignSvg(
      Buffer.from(
        `<svg xmlns="${SVG_NS}" width="100000" height="50000"><rect width="100000" height="50000" fill="#123"/></svg>`,
      ),
    );
    expect(r.ok && [r.widthPx, r.heightPx]).toEqual([MAX_RASTER_SIDE_PX, MAX_RASTER_SIDE_PX / 2]);
  });
});
