/**
 * Reads the renderer's own SVG back for assertions. The output format is fixed (one element per
 * tag, attributes in a known order), so regular expressions are enough here; they are not a general
 * SVG parser.
 */
export interface ParsedCircle {
  cx: number;
  cy: number;
  r: number;
  /** Base colour of the circle's gradient (the 0.45 stop). */
  color: string;
  /** Position of the element in the document. */
  order: number;
}

export interface ParsedLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  stroke: string;
  width: number;
  order: number;
}

export interface ParsedText {
  x: number;
  y: number;
  text: string;
  fontSizePx: number;
  haloWidthPx: number;
}

export function parseGradientColors(svg: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of svg.matchAll(/<radialGradient id="([^"]+)"[^>]*>(.*?)<\/radialGradient>/g)) {
    const base = /<stop offset="0.45" stop-color="(#[0-9A-F]{6})"\/>/.exec(m[2]!);
    if (base) out.set(m[1]!, base[1]!);
  }
  return out;
}

export function parseCircles(svg: string): ParsedCircle[] {
  const gradients = parseGradientColors(svg);
  return [...svg.matchAll(/<circle cx="([^"]+)" cy="([^"]+)" r="([^"]+)" fill="url\(#([^)]+)\)"\/>/g)].map((m) => ({
    cx: Number(m[1]),
    cy: Number(m[2]),
    r: Number(m[3]),
    color: gradients.get(m[4]!) ?? "missing",
    order: m.index,
  }));
}

export function parseLines(svg: string): ParsedLine[] {
  return [
    ...svg.matchAll(
      /<line x1="([^"]+)" y1="([^"]+)" x2="([^"]+)" y2="([^"]+)" stroke="([^"]+)" stroke-width="([^"]+)"\/>/g,
    ),
  ].map((m) => ({
    x1: Number(m[1]),
    y1: Number(m[2]),
    x2: Number(m[3]),
    y2: Number(m[4]),
    stroke: m[5]!,
    width: Number(m[6]),
    order: m.index,
  }));
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) =>
    e === "lt" ? "<" : e === "gt" ? ">" : e === "quot" ? '"' : e === "apos" ? "'" : "&",
  );
}

/** Every label with the font size and halo width of its group. */
export function parseTexts(svg: string): ParsedText[] {
  const out: ParsedText[] = [];
  for (const g of svg.matchAll(
    /<g font-family="[^"]*"[^>]* font-size="([^"]+)"[^>]* stroke-width="([^"]+)"[^>]*>(.*?)<\/g>/g,
  )) {
    for (const t of g[3]!.matchAll(/<text x="([^"]+)" y="([^"]+)">([^<]*)<\/text>/g)) {
      out.push({
        x: Number(t[1]),
        y: Number(t[2]),
        text: unescapeXml(t[3]!),
        fontSizePx: Number(g[1]),
        haloWidthPx: Number(g[2]),
      });
    }
  }
  return out;
}
