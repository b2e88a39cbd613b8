import "server-only";
import pg from "pg";
import type { ResponseExportRow } from "@/lib/export/response-table";
import { databaseUrl } from "@/lib/server/env";
import { EXPORT_PAGE_ROWS, EXPORT_PG_TYPES, iterateResponsePages } from "./response-pages";

export { EXPORT_PAGE_ROWS };

/**
 * Every response of the given studies (all phases) in long format, study by study, each in
 * (submittedAt, id) order, fetched in keyset pages: never more than one page in memory. The
 * export holds one connection of its own until the iterator finishes or is returned early (a
 * closed download ends the stream, which returns the iterator). In-process form of the export;
 * the route and the CLI use the worker thread (responses-worker-stream.ts) unless EXPORT_WORKER=0.
 */
export async function* iterateResponseRows(
  studyIds: readonly string[],
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<ResponseExportRow> {
  let client: pg.Client | null = null;
  try {
    client = new pg.Client({ connectionString: databaseUrl, types: EXPORT_PG_TYPES });
    // Without a listener, a connection dropped between two pages would crash the process; the
    // next page query then fails and ends the stream with an error instead.
    client.on("error", (err) => console.error("responses export: database connection error:", err));
    await client.connect();
    for await (const page of iterateResponsePages(client, studyIds, pageRows)) yield* page;
  } finally {
    await client?.end();
  }
}
