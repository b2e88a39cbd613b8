/**
 * Browser-side chart export. SVG: the chart's own <svg>, serialised, with a title and a legend
 * drawn into it (recharts renders its legend as HTML, which an SVG file would lose). PNG: that SVG
 * drawn onto a canvas at 2× and saved with toBlob.
 */

export interface LegendEntry {
  label: string;
  color: string;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const FONT = "Inter, 'DejaVu Sans', Arial, sans-serif";
const TITLE_HEIGHT_PX = 28;
const LEGEND_ROW_PX = 20;
const PNG_SCALE = 2;

/** A standalone SVG document of the chart, with title, white background and legend. */
export function buildStandaloneSvg(source: SVGSVGElement, title: string, legend: readonly LegendEntry[]): string {
  const width = Math.ceil(source.width.baseVal.value || source.getBoundingClientRect().width);
  const height = Math.ceil(source.height.baseVal.value || source.getBoundingClientRect().height);
  const legendHeight = legend.length > 0 ? LEGEND_ROW_PX + 8 : 0;
  const total = TITLE_HEIGHT_PX + height + legendHeight;

  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("xmlns", SVG_NS);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(total));
  svg.setAttribute("viewBox", `0 0 ${width} ${total}`);
  svg.setAttribute("font-family", FONT);

  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "#ffffff");
  svg.appendChild(background);

  const heading = document.createElementNS(SVG_NS, "text");
  heading.setAttribute("x", "8");
  heading.setAttribute("y", "19");
  heading.setAttribute("font-size", "14");
  heading.setAttribute("font-weight", "600");
  heading.setAttribute("fill", "#0f172a");
  heading.textContent = title;
  svg.appendChild(heading);

  const chart = source.cloneNode(true) as SVGSVGElement;
  chart.setAttribute("x", "0");
  chart.setAttribute("y", String(TITLE_HEIGHT_PX));
  chart.setAttribute("width", String(width));
  chart.setAttribute("height", String(height));
  svg.appendChild(chart);

  let x = 8;
  const y = TITLE_HEIGHT_PX + height + 6;
  for (const entry of legend) {
    const swatch = document.createElementNS(SVG_NS, "rect");
    swatch.setAttribute("x", String(x));
    swatch.setAttribute("y", String(y));
    swatch.setAttribute("width", "12");
    swatch.setAttribute("height", "12");
    swatch.setAttribute("fill", entry.color);
    svg.appendChild(swatch);
    const label = document.createElementNS(SVG_NS, "text");
    label.setAttribute("x", String(x + 16));
    label.setAttribute("y", String(y + 10));
    label.setAttribute("font-size", "12");
    label.setAttribute("fill", "#0f172a");
    label.textContent = entry.label;
    svg.appendChild(label);
    x += 16 + entry.label.length * 7 + 16;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}`;
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function downloadSvg(svgText: string, fileName: string): void {
  download(new Blob([svgText], { type: "image/svg+xml;charset=utf-8" }), fileName);
}

/** Rasterises the standalone SVG on a canvas (2× for sharp text) and downloads it as PNG. */
export async function downloadPng(svgText: string, fileName: string): Promise<void> {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("the chart could not be drawn as an image"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(image.width * PNG_SCALE);
    canvas.height = Math.ceil(image.height * PNG_SCALE);
    const context = canvas.getContext("2d");
    if (!context) throw new Error("this browser cannot draw on a canvas");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.scale(PNG_SCALE, PNG_SCALE);
    context.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("the PNG could not be encoded");
    download(blob, fileName);
  } finally {
    URL.revokeObjectURL(url);
  }
}
