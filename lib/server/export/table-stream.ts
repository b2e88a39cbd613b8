import "server-only";
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { listHeader, toCsvRecord, type ExportTable } from "@/lib/export/columns";

export interface TableStreamOptions {
  delimiter?: "," | "\t";
  /** Off only for the VLMEvalKit TSV (read by programs, and a leading apostrophe would corrupt it). */
  neutralizeFormulas?: boolean;
}

/**
 * Streams a table as CSV/TSV: the header, then one record per row pulled from `rows` only as fast
 * as the consumer reads (Readable.from honours backpressure), so memory stays constant however many
 * rows there are. If the consumer goes away, pipeline destroys the source, which ends the row
 * iterator (and with it any database paging).
 */
export function createTableStream<Row>(
  table: ExportTable<Row>,
  rows: AsyncIterable<Row> | Iterable<Row>,
  options: TableStreamOptions = {},
): Readable {
  const format = { neutralizeFormulas: options.neutralizeFormulas ?? true };
  async function* records(): AsyncGenerator<string[]> {
    yield listHeader(table);
    for await (const row of rows) yield toCsvRecord(table, row, format);
  }
  const source = Readable.from(records(), { objectMode: true, highWaterMark: 64 });
  const stringifier = stringify({ delimiter: options.delimiter ?? ",", record_delimiter: "unix" });
  return pipeline(source, stringifier, (err) => {
    // A consumer that went away (closed download, `| head`) is not a failure. Anything else is logged:
    // headers are already sent when a page query fails mid-stream, so the client sees a truncated file.
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (err && code !== "ERR_STREAM_PREMATURE_CLOSE" && code !== "EPIPE")
      console.error(`export ${table.id} failed:`, err);
  });
}

/**
 * A Node stream as the web ReadableStream a route handler returns. Some export sources emit strings (Readable.from of
 * text, csv-stringify without an encoding); a web Response body must carry bytes ("Received non-Uint8Array chunk").
 */
export function toWebStream(stream: Readable): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const bytes = new TransformStream<unknown, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : (chunk as Uint8Array));
    },
  });
  return (Readable.toWeb(stream) as unknown as ReadableStream<unknown>).pipeThrough(bytes);
}

/** `attachment` with an ASCII file name and its UTF-8 form (RFC 6266 / 5987). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
