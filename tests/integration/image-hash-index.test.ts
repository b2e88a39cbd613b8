// A picture the image store lacks is found by its content hash: on a participant's image request (the app's fallback)
// and once per distinct picture in the backfill. Both statements must use the (sha256, "mimeType") index on a table
// with no statistics (these machines run PostgreSQL with autovacuum off; an import does not ANALYZE), not read every
// row. The control drops the index and sees the whole-table scan the lookups did before it existed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// lib/server/db reads DATABASE_URL when first imported: this file's database, not the suite's.
const own = await vi.hoisted(async () => {
  const { ownDatabase } = await import("../helpers/own-database");
  return ownDatabase("misi_test_imghash", { forApp: true });
});

const { runMigrationCommand } = await import("../../scripts/db.mts");
const { IMAGE_WITH_HASH_SQL } = await import("@/lib/server/image-serve");
const { IMAGES_WITH_HASH_SQL } = await import("@/lib/server/image-store");
const { disconnectDb } = await import("@/lib/server/db");

let client: pg.Client;
const PICTURES = 3000;

beforeAll(async () => {
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
  client = new pg.Client({ connectionString: own.url });
  await client.connect();
  // Row counts below are per worker under a parallel plan: one process reads, so they are the whole count.
  await client.query(`SET max_parallel_workers_per_gather = 0`);
  await client.query(`ALTER TABLE "ItemImage" SET (autovacuum_enabled = false)`);
  await client.query(
    `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", "updatedAt")
     VALUES ('item-1', 'bundle', 'translation', 1, 'q', '{}', 'h-1', now())`,
  );
  await client.query(
    `INSERT INTO "ItemImage" (id, "itemId", position, caption, "mimeType", sha256, data)
     SELECT 'img-' || g, 'item-1', g, 'view', 'image/svg+xml', md5(g::text) || md5((g + 1)::text), '\\x3c7376672f3e'::bytea
     FROM generate_series(1, $1::int) g`,
    [PICTURES],
  );
}, 120_000);

afterAll(async () => {
  await client?.end();
  await disconnectDb();
  await own.drop();
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** The plan PostgreSQL runs for the statement as the app sends it (a prepared statement with two parameters). */
async function planOf(sql: string, sha256: string): Promise<{ all: PlanNode[]; rowsRead: number }> {
  await client.query(`DEALLOCATE ALL`);
  await client.query(`PREPARE lookup(text, text) AS ${sql}`);
  const { rows } = await client.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE lookup('${sha256}', 'image/svg+xml')`,
  );
  const all = nodes(rows[0]!["QUERY PLAN"][0]!.Plan);
  // Rows the scans of ItemImage looked at: those they returned and those their filter threw away.
  const rowsRead = all
    .filter((n) => n["Relation Name"] === "ItemImage")
    .reduce((sum, n) => sum + (n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0), 0);
  return { all, rowsRead };
}

describe("a picture looked up by its hash, on a table without statistics", () => {
  const wanted = async () =>
    (await client.query<{ sha256: string }>(`SELECT sha256 FROM "ItemImage" WHERE id = 'img-1717'`)).rows[0]!.sha256;

  it("the table really has no statistics (the premise)", async () => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stats WHERE tablename = 'ItemImage'`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it.each([
    ["the app's fallback on an image request", IMAGE_WITH_HASH_SQL],
    ["the backfill", IMAGES_WITH_HASH_SQL],
  ])("%s reads the picture through the hash index, not the table", async (_what, sql) => {
    const { all, rowsRead } = await planOf(sql, await wanted());
    expect(all.map((n) => n["Index Name"])).toContain("ItemImage_sha256_mimeType_idx");
    expect(all.some((n) => n["Node Type"] === "Seq Scan")).toBe(false);
    expect(rowsRead).toBe(1);
  });

  it("control: without the index the same statements read the whole table", async () => {
    await client.query(`DROP INDEX "ItemImage_sha256_mimeType_idx"`);
    try {
      for (const sql of [IMAGE_WITH_HASH_SQL, IMAGES_WITH_HASH_SQL]) {
        // A picture that is not there: a scan cannot stop early at a match, whatever row it would have met first.
        const { all, rowsRead } = await planOf(sql, "0".repeat(64));
        expect(all.some((n) => n["Node Type"] === "Seq Scan")).toBe(true);
        expect(rowsRead).toBe(PICTURES);
      }
    } finally {
      await client.query(`CREATE INDEX "ItemImage_sha256_mimeType_idx" ON "ItemImage"("sha256", "mimeType")`);
    }
  });
});
