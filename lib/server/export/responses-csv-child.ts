// Child process of the responses export (spawned by responses-child-stream.ts from a bundle of this
// file): reads keyset pages with node-postgres and writes each as one CSV chunk to stdout, waiting
// for the pipe to drain before reading the next page. It loads only pg, csv-stringify, zod and the
// column definitions, in a heap of its own with small caps, so formatting a million rows never
// grows the server's (or the CLI's) heap (bench/export.mts).
// Input: MISI_EXPORT_DATABASE_URL and MISI_EXPORT_OPTIONS (JSON: studyId, scope, pageRows) in the environment,
// so the connection string never shows in a process list. A failure goes to stderr with exit code 1.
import pg from "pg";
import { stringify } from "csv-stringify/sync";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { SCOPE_STUDIES_SQL } from "@/lib/server/dal/results/scope-studies-sql";
import { EXPORT_PG_TYPES, iterateResponsePages } from "./response-pages";

export interface ResponsesChildOptions {
  studyId: string;
  scope: "study" | "pool";
  pageRows: number;
}

// The reader went away (`| head`, a closed download): what it wanted was written; anything else is a failure.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") process.stderr.write(`writing the export failed: ${err.message}\n`);
  process.exit(err.code === "EPIPE" ? 0 : 1);
});

/** Writes to stdout, resolving once the pipe has room again (backpressure: the parent reads as fast as its consumer). */
function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text, "utf8")) resolve();
    else process.stdout.once("drain", resolve);
  });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.MISI_EXPORT_DATABASE_URL;
  if (!databaseUrl) throw new Error("MISI_EXPORT_DATABASE_URL is not set");
  const options = JSON.parse(process.env.MISI_EXPORT_OPTIONS ?? "null") as ResponsesChildOptions | null;
  if (
    !options ||
    typeof options.studyId !== "string" ||
    !["study", "pool"].includes(options.scope) ||
    !Number.isInteger(options.pageRows)
  ) {
    throw new Error("MISI_EXPORT_OPTIONS is missing or malformed");
  }
  const client = new pg.Client({ connectionString: databaseUrl, types: EXPORT_PG_TYPES });
  try {
    await client.connect();
    const studies = await client.query<{ id: string }>(SCOPE_STUDIES_SQL, [options.studyId, options.scope]);
    if (studies.rows.length === 0) throw new Error(`No study with id ${options.studyId}.`);
    await write(stringify([listHeader(RESPONSES_TABLE)], { record_delimiter: "unix" }));
    for await (const page of iterateResponsePages(
      client,
      studies.rows.map((s) => s.id),
      options.pageRows,
    )) {
      await write(
        stringify(
          page.map((row) => toCsvRecord(RESPONSES_TABLE, row, { neutralizeFormulas: true })),
          { record_delimiter: "unix" },
        ),
      );
    }
  } finally {
    await client.end().catch(() => {});
  }
}

// No top-level await: the bundle is CommonJS (pg and its dependencies are CommonJS).
main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
