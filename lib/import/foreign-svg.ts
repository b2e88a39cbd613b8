/**
 * Foreign SVG (from an imported bundle, release or TSV) is rasterised to PNG at import and never stored or served as
 * SVG: a text deny-list is bypassed by `<x:script>` in the SVG namespace, `&#106;avascript:` and `&#104;ttps:`.
 *
 * Why rasterise rather than sanitise: a PNG cannot carry script, links or external loads, whatever the markup tricks;
 * a sanitiser must parse exactly as every browser does (namespaces, entities, CDATA, `<use>`, SMIL `<set>`), and the
 * maintained ones (DOMPurify) need a DOM (jsdom) on the server. resvg is already a dependency (lib/render/png.ts) and
 * renders without any network access. The cost: import CPU (≈130 ms for a 1024² view) and bytes (a PNG is larger),
 * and a foreign image is not a vector image in the zoom view; the app's own generator can still write SVG.
 *
 * resvg does read a LOCAL file named by `<image href="/path">` (it has no option to turn that off), so the markup is
 * parsed first with a conforming XML parser (saxes, which decodes entities as resvg's XML parser does) and refused
 * when any href/src names something other than a fragment (`#id`) or an embedded raster image (`data:image/png|…`),
 * or when it declares entities (a DTD could smuggle markup past the check, or expand exponentially).
 */
import { Resvg } from "@resvg/resvg-js";
import { SaxesParser } from "saxes";
import { resvgOptionsFor } from "@/lib/render/png";

/** Longest side of a rasterised foreign SVG; larger declared sizes are scaled down (a 100000 px SVG would allocate GBs). */
export const MAX_RASTER_SIDE_PX = 4096;

const SAFE_REFERENCE = /^\s*(#|data:image\/(png|jpeg|gif|webp)[;,])/i;

/** Why this SVG markup may not be rasterised (a reference to a file or URL, entities, not well-formed), or null. */
export function findSvgReferenceProblem(text: string): string | null {
  if (/<!ENTITY/i.test(text)) return "declares XML entities";
  const parser = new SaxesParser({ xmlns: true, position: true });
  let problem: string | null = null;
  parser.on("error", (err) => {
    problem ??= `not well-formed XML (${err.message})`;
  });
  parser.on("opentag", (tag) => {
    if (problem) return;
    for (const attr of Object.values(tag.attributes)) {
      const local = typeof attr === "string" ? "" : attr.local.toLowerCase();
      if ((local === "href" || local === "src") && typeof attr !== "string" && !SAFE_REFERENCE.test(attr.value)) {
        problem = `<${tag.local}> at line ${parser.line} references '${attr.value.slice(0, 80)}' (only #fragments and embedded PNG/JPEG/GIF/WebP images are allowed)`;
        return;
      }
    }
  });
  try {
    parser.write(text).close();
  } catch (err) {
    problem ??= `not well-formed XML (${err instanceof Error ? err.message : String(err)})`;
  }
  return problem;
}

export type RasterizeResult =
  { ok: true; png: Buffer; widthPx: number; heightPx: number } | { ok: false; problem: string };

/** Renders foreign SVG bytes to a PNG at the SVG's own size (capped at MAX_RASTER_SIDE_PX), or says why it cannot. */
export function rasterizeForeignSvg(bytes: Uint8Array): RasterizeResult {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const problem = findSvgReferenceProblem(text);
  if (problem) return { ok: false, problem: `SVG refused: ${problem}` };
  try {
    const options = resvgOptionsFor();
    const probe = new Resvg(text, options);
    const side = Math.max(probe.width, probe.height);
    if (!(side > 0)) return { ok: false, problem: "SVG refused: it has no size (width/height or viewBox)" };
    const resvg =
      side > MAX_RASTER_SIDE_PX
        ? new Resvg(text, {
            ...options,
            fitTo:
              probe.width >= probe.height
                ? { mode: "width", value: MAX_RASTER_SIDE_PX }
                : { mode: "height", value: MAX_RASTER_SIDE_PX },
          })
        : probe;
    const image = resvg.render();
    return { ok: true, png: image.asPng(), widthPx: image.width, heightPx: image.height };
  } catch (err) {
    return { ok: false, problem: `SVG could not be rendered: ${err instanceof Error ? err.message : String(err)}` };
  }
}
