import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createStoredZip, createTestBundle } from "./helpers/item-bundle";
import { createSentinelStudy, e2eDatabaseUrl } from "./helpers/participant-fixtures";
import { E2E_ADMIN, signInRequest } from "./helpers/sign-in";

/**
 * The heavy-work pool in the production build (`next start`): its worker script is built and forked at run time, so
 * this is where a bundling mistake would show. A 64 k-deep nested SVG (83 s of XML checking on the server's thread
 * before) is refused by its time budget while a participant's page is served.
 */

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

let admin: APIRequestContext;

test.beforeAll(async ({ playwright }, workerInfo) => {
  admin = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
  await signInRequest(admin, E2E_ADMIN);
});

test.afterAll(async () => {
  await admin?.dispose();
});

test("a nested-SVG bomb is refused by its budget in a worker while a participant's page is served", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const { slug } = await createSentinelStudy({ count: 2 });
  const SVG_NS = "http://www.w3.org/2000/svg";
  const nested = `<svg xmlns="${SVG_NS}" width="10" height="10">${"<g>".repeat(65_536)}<rect width="10" height="10"/>${"</g>".repeat(65_536)}</svg>`;
  const bundle = createTestBundle({ perTask: 1 });
  const items = fs
    .readFileSync(path.join(bundle.dir, "items.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; images: Array<{ file: string }> });
  fs.writeFileSync(path.join(bundle.dir, items[0]!.images[0]!.file), nested);
  const files = [
    "manifest.json",
    "items.jsonl",
    "answers.jsonl",
    ...items.flatMap((it) => it.images.map((im) => im.file)),
  ];
  const zip = createStoredZip(files.map((name) => ({ name, data: fs.readFileSync(path.join(bundle.dir, name)) })));

  const upload = await admin.post(`/api/admin/import?name=nested-svg-${bundle.tag}.zip`, {
    data: zip,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  const { batchId } = (await upload.json()) as { batchId: string };
  const batch = async () =>
    (
      await sql<{ status: string; finishedAt: Date | null; report: unknown }>(
        `SELECT status, "finishedAt", report FROM "ImportBatch" WHERE id = $1`,
        [batchId],
      )
    )[0]!;
  await expect.poll(async () => (await batch()).status, { timeout: 60_000 }).toBe("running");

  // A participant entering the study and getting its session page, while the import works on the bomb: answered,
  // and the import still running.
  const page = await request.get(`/s/${slug}?PROLIFIC_PID=heavy-${bundle.tag}&STUDY_ID=s&SESSION_ID=x`);
  expect(page.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(`/s/${slug}/session`);
  expect((await batch()).finishedAt).toBeNull();

  await expect.poll(async () => (await batch()).finishedAt, { timeout: 120_000 }).not.toBeNull();
  const report = JSON.stringify((await batch()).report);
  expect(report).toContain(
    "SVG check and rasterisation was stopped: it ran over its time budget of 10 s (HEAVY_SVG_BUDGET_MS)",
  );
  // The other records' SVGs went through the same workers and were stored as PNG.
  const stored = await sql<{ mimeType: string }>(
    `SELECT im."mimeType" FROM "Item" i JOIN "ItemImage" im ON im."itemId" = i.id WHERE i."externalId" = ANY($1) AND im.position = 0`,
    [items.slice(1).map((it) => it.id)],
  );
  expect(stored.length).toBeGreaterThan(0);
  expect(new Set(stored.map((s) => s.mimeType))).toEqual(new Set(["image/png"]));
});
