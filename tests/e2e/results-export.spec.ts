import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { expect, test } from "@playwright/test";
import * as tar from "tar-stream";
import { parse } from "csv-parse/sync";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { E2E_ADMIN, signInPage, signInRequest } from "./helpers/sign-in";

// The seeded demo study (slug "demo") has a frozen pool; other specs may or may not have answered it.

async function findDemoStudyId(request: Parameters<typeof signInRequest>[0]): Promise<string> {
  const index = await request.get("/admin/results");
  expect(index.status()).toBe(200);
  const html = await index.text();
  const match =
    /href="\/admin\/results\/([a-z0-9]+)"[^>]*>[^<]*<\/a>\s*<span[^>]*>demo<\/span>/.exec(html) ??
    /href="\/admin\/results\/([a-z0-9]+)"/.exec(html);
  expect(match, "the results index lists the seeded demo study").not.toBeNull();
  return match![1]!;
}

test("a researcher opens the results page and downloads every export", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInRequest(request, E2E_ADMIN);
  const studyId = await findDemoStudyId(request);

  await signInPage(page, E2E_ADMIN, `/admin/results/${studyId}`);
  for (const name of ["Human results per task", "Charts", "Item analysis", "Models vs humans", "Exports"]) {
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  }
  await expect(
    page.getByRole("heading", { name: /published results \(as reported, not item-matched\)/ }),
  ).toBeVisible();
  await expect(page.getByText("as reported").first()).toBeVisible();

  const responses = await request.get(`/api/export/${studyId}/responses`);
  expect(responses.status()).toBe(200);
  expect(responses.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(responses.headers()["content-disposition"]).toMatch(/^attachment; filename="demo-responses\.csv"/);
  const rows = parse(await responses.text(), { columns: false }) as string[][];
  expect(rows[0]).toEqual(RESPONSES_TABLE.columns.map((c) => c.key));

  for (const kind of ["task-summary", "item-summary", "participants"]) {
    const r = await request.get(`/api/export/${studyId}/${kind}`);
    expect(r.status(), kind).toBe(200);
    expect(r.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  }

  const tsv = await request.get(`/api/export/${studyId}/vlmevalkit-tsv`);
  expect(tsv.status()).toBe(200);
  const items = parse(await tsv.text(), { columns: true, delimiter: "\t" }) as Record<string, string>[];
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) {
    const first = item.image!.startsWith("[") ? (JSON.parse(item.image!) as string[])[0]! : item.image!;
    // Base64 of the PNG signature.
    expect(first.startsWith("iVBORw0KGgo")).toBe(true);
  }

  const codebook = await request.get("/api/export/codebook");
  expect(codebook.status()).toBe(200);
  expect((await codebook.text()).split("\n")[0]).toBe(
    "table,table_title,table_description,column,position,type,unit,values,description",
  );

  // The analysis package: the page's link, a .tar.gz with the Psych-DS folder and both scripts.
  const packageHref = await page.getByTestId("psych-ds-download").getAttribute("href");
  expect(packageHref).toBe(`/api/export/${studyId}/psych-ds`);
  const archive = await request.get(packageHref!);
  expect(archive.status()).toBe(200);
  expect(archive.headers()["content-type"]).toBe("application/gzip");
  expect(archive.headers()["content-disposition"]).toMatch(/^attachment; filename="demo-psych-ds\.tar\.gz"/);
  const names: string[] = [];
  const extract = tar.extract();
  const listed = (async () => {
    for await (const entry of extract) {
      names.push(entry.header.name);
      entry.resume();
    }
  })();
  await pipeline(Readable.from([await archive.body()]), createGunzip(), extract);
  await listed;
  for (const file of [
    "dataset_description.json",
    "analysis/analysis.R",
    "analysis/analysis.py",
    "analysis/settings.csv",
  ])
    expect(names).toContain(`demo-psych-ds/${file}`);
  expect(
    names.filter((n) =>
      /^demo-psych-ds\/data\/study-[A-Za-z0-9]+_table-(trials|participants|items|usage3d)_data\.csv$/.test(n),
    ),
  ).toHaveLength(4);
});

test("exports refuse anonymous callers and unknown studies", async ({ request, playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get("/api/export/codebook")).status()).toBe(401);
  expect((await anonymous.get("/api/export/anything/responses")).status()).toBe(401);
  await anonymous.dispose();
  await signInRequest(request, E2E_ADMIN);
  expect((await request.get("/api/export/no-such-study/responses")).status()).toBe(404);
  expect((await request.get("/api/export/no-such-study/not-a-kind")).status()).toBe(422);
});

test("the model import form reports a file that matches no item, with its line", async ({ page }) => {
  await signInPage(page, E2E_ADMIN, "/admin/models");
  await page.getByLabel("Prediction file").setInputFiles({
    name: "preds.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("item_id,prediction\nno-such-item,A\n"),
  });
  await page.getByLabel("Model", { exact: true }).fill("E2E model");
  await page.getByRole("button", { name: "Import" }).click();
  // The page's own alert, not Next's route announcer (also role=alert).
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("No prediction in preds.csv matched an item.");
  await alert.getByText(/^Problems/).click();
  await expect(alert).toContainText("preds.csv, line 2, item_id: no item has id or external id 'no-such-item'");
});
