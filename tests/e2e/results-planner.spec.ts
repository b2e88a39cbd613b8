import { expect, test } from "@playwright/test";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { planStudy } from "@/lib/results/sample-size-plan";
import { createSentinelStudy, e2eDatabaseUrl } from "./helpers/participant-fixtures";
import { E2E_ADMIN, signInPage, signInRequest } from "./helpers/sign-in";

async function studyIdOf(slug: string): Promise<string> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(`SELECT id FROM "Study" WHERE slug = $1`, [slug])).rows[0].id as string;
  } finally {
    await client.end();
  }
}

test("results page: sample-size planner, paper-style tables, a large export with its size first and progress", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { slug } = await createSentinelStudy({ count: 2 });
  const studyId = await studyIdOf(slug);
  await signInPage(page, E2E_ADMIN, `/admin/results/${studyId}`);

  await expect(page.getByRole("heading", { level: 2, name: "How many participants?" })).toBeVisible();
  const planner = page.getByTestId("sample-size-planner");
  const needed = async () => Number(/(\d+)/.exec((await planner.getByTestId("planner-participants").textContent()) ?? "")![1]);
  await expect(planner.getByTestId("planner-participants")).toHaveText(/Participants needed: \d+/);
  // The study: T1 only, 2 items per participant, k = 5; the planner's defaults: paper human row (T1 100 %), ICC 0.1.
  const expectedAt = (halfWidth: number) =>
    planStudy({ target: { kind: "precision", halfWidth }, columns: ["translation"], itemsPerTask: 2, answersPerItem: 5, assumedIcc: 0.1 }).participants;
  expect(await needed()).toBe(expectedAt(0.1));
  await planner.getByLabel("Half-width (points)").fill("5");
  await expect.poll(needed).toBe(expectedAt(0.05));
  expect(expectedAt(0.05)).toBeGreaterThan(expectedAt(0.1));
  await expect(planner.getByRole("rowheader", { name: "Trans" })).toBeVisible();

  await expect(page.getByRole("heading", { level: 2, name: "Paper-style tables" })).toBeVisible();
  const tex = await page.getByRole("link", { name: "LaTeX (booktabs)" }).first().getAttribute("href");
  await signInRequest(request, E2E_ADMIN);
  const latex = await request.get(tex!);
  expect(latex.status()).toBe(200);
  expect(await latex.text()).toContain("\\begin{tabular}{lrrrrrrrrrrr}");

  // Size first, then the download with progress, saved under the server's file name.
  await page.getByRole("button", { name: "Responses (long format, one row per answer)" }).click();
  await expect(page.getByText(/about [\d.]+ MB \(0 rows\)/)).toBeVisible();
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download", exact: true }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`${slug}-responses.csv`);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.trim().split("\n")[0]).toBe(RESPONSES_TABLE.columns.map((c) => c.key).join(","));
  await expect(page.getByText(/saved \(/)).toBeVisible();

  const small = await request.get(`/api/export/${studyId}/vlmevalkit-tsv?size=512`);
  expect(small.status()).toBe(200);
  expect(small.headers()["content-disposition"]).toContain("-512px.tsv");
});

test("study form: planner follows the form, practice items are picked in the item browser", async ({ page }) => {
  const { slug } = await createSentinelStudy({ count: 2 });
  await signInPage(page, E2E_ADMIN, "/admin/studies/new");
  await page.getByText("How many participants? (sample-size planner)").click();
  await expect(page.getByTestId("planner-participants")).toHaveText(/Participants needed: \d+/);

  const picker = page.getByRole("group", { name: "Pick practice items" });
  await picker.getByLabel("Task").selectOption("translation");
  // The item browser matches item ids exactly (createSentinelStudy names them it_<tag>_<n>).
  await picker.getByLabel("Search (question, PDB id, item id)").fill(`it_${slug.replace("e2e-", "")}_0`);
  await picker.getByRole("button", { name: "Find items" }).click();
  const results = picker.getByRole("list", { name: "Pick practice items: search results" });
  await expect(results.getByRole("listitem").first()).toContainText("T1 Translation");
  await results.getByRole("button", { name: /^Add / }).first().click();
  await expect(picker.getByRole("list", { name: "Pick practice items: chosen" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByLabel("Practice item ids (with feedback, not scored)")).not.toHaveValue("");
});
