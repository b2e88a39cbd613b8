import "server-only";
import { stringify } from "csv-stringify/sync";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { db } from "@/lib/server/db";
import { resolveResultsScope, type ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { iterateResponseRows } from "./iterate-response-rows";
import { toTsvPng, type TsvImageSize, toMaxSidePx } from "./tsv-image";

/** Rows formatted to measure the average CSV row of the responses export. */
const SAMPLE_ROWS = 200;
/** SVG images rasterised to estimate the PNG size of the rest. */
const SAMPLE_SVGS = 3;

export interface ExportSizeEstimate {
  /** Responses export: rows and estimated bytes (average of a formatted sample × rows). */
  responses: { rows: number; bytes: number };
  /** VLMEvalKit TSV at the chosen image size: items, images and estimated bytes (base64 PNGs dominate). */
  tsv: { items: number; images: number; bytes: number; imageSize: TsvImageSize };
}

/**
 * Estimated sizes of the two large exports, shown before a download starts. Cheap: one count, one
 * formatted page of rows, image byte totals and a few SVGs rasterised at the chosen size.
 */
export async function estimateExportSizes(options: {
  studyId: string;
  scope?: ResultsScope;
  imageSize?: TsvImageSize;
}): Promise<ExportSizeEstimate> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const imageSize = options.imageSize ?? "original";
  const rows = await db.response.count({ where: { studyId: { in: scope.studyIds } } });
  let sampleBytes = 0;
  let sampled = 0;
  for await (const row of iterateResponseRows(scope.studyIds, SAMPLE_ROWS)) {
    sampleBytes += Buffer.byteLength(
      stringify([toCsvRecord(RESPONSES_TABLE, row, { neutralizeFormulas: true })], { record_delimiter: "unix" }),
    );
    if (++sampled >= SAMPLE_ROWS) break;
  }
  const header = Buffer.byteLength(stringify([listHeader(RESPONSES_TABLE)], { record_delimiter: "unix" }));
  const responsesBytes = header + (sampled === 0 ? 0 : Math.round((sampleBytes / sampled) * rows));

  const poolItems = { poolItems: { some: { poolVersionId: scope.poolVersion.id } } };
  const [items, byType, svgSample] = await Promise.all([
    db.poolItem.count({ where: { poolVersionId: scope.poolVersion.id } }),
    db.itemImage.groupBy({ by: ["mimeType"], where: { item: poolItems }, _count: { _all: true } }),
    db.itemImage.findMany({
      where: { item: poolItems, mimeType: "image/svg+xml" },
      take: SAMPLE_SVGS,
      orderBy: { id: "asc" },
      select: { mimeType: true, data: true },
    }),
  ]);
  const maxSide = toMaxSidePx(imageSize);
  let pngBytes = 0;
  const nPng = byType.find((t) => t.mimeType === "image/png")?._count._all ?? 0;
  if (nPng > 0) {
    const sum = await db.$queryRaw<{ bytes: bigint | null }[]>`
      SELECT sum(octet_length(im.data))::bigint AS bytes FROM "ItemImage" im
      JOIN "PoolItem" pi ON pi."itemId" = im."itemId" WHERE pi."poolVersionId" = ${scope.poolVersion.id} AND im."mimeType" = 'image/png'`;
    // Scaled PNGs shrink roughly with the pixel count; an upper bound when the size is "original".
    pngBytes = Number(sum[0]?.bytes ?? 0) * (maxSide === null ? 1 : Math.min(1, (maxSide / 1024) ** 2));
  }
  const nSvg = byType.find((t) => t.mimeType === "image/svg+xml")?._count._all ?? 0;
  let svgBytes = 0;
  if (svgSample.length > 0) {
    const rendered = svgSample.map((img, i) => toTsvPng(img, maxSide, `sample image ${i}`).length);
    svgBytes = (rendered.reduce((a, b) => a + b, 0) / rendered.length) * nSvg;
  }
  const images = byType.reduce((s, t) => s + t._count._all, 0);
  // base64 is 4/3 of the bytes; questions and options add about 1 kB per item.
  const tsvBytes = Math.round(((pngBytes + svgBytes) * 4) / 3 + items * 1024);
  return { responses: { rows, bytes: responsesBytes }, tsv: { items, images, bytes: tsvBytes, imageSize } };
}
