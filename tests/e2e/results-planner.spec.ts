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

test("results page: sample-size planner, paper-style tables, a large export with its size first and progress", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { slug } = await createSentinelStudy({ count: 2 });
  const studyId = await studyIdOf(slug);
  await signInPage(page, E2E_ADMIN, `/admin/results/${studyId}`);

  await expect(page.getByRole("heading", { level: 2, name: "How many participants?" })).toBeVisible();
  const planner = page.getByTestId("sample-size-planner");
  const needed = async () =>
    Number(/(\d+)/.exec((await planner.getByTestId("planner-participants").textContent()) ?? "")![1]);
  await expect(planner.getByTestId("planner-participants")).toHaveText(/Participants needed: \d+/);
  // The study: T1 only, 2 items per participant, k = 5; the planner's defaults: paper human row (T1 100 %), ICC 0.1.
  const expectedAt = (halfWidth: number) =>
    planStudy({
      target: { kind: "precision", halfWidth },
      columns: ["translation"],
      itemsPerTask: 2,
      answersPerItem: 5,
      assumedIcc: 0.1,
    }).participants;
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

/**
 * Answers of `people` participants (half static, half interactive) on every item of the study, stored as the app stores
 * them (Participant, Assignment, Response); participant i answers item j right when (i + j) mod 3 ≠ 0, interactive ones
 * also on the rest of item 0.
 */
async function answerInBothConditions(slug: string, golds: Map<string, string>, people: number): Promise<void> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const studyId = (await client.query(`SELECT id FROM "Study" WHERE slug = $1`, [slug])).rows[0].id as string;
    const items = [...golds.keys()];
    for (let i = 0; i < people; i++) {
      const condition = i % 2 === 0 ? "static" : "interactive";
      const pid = `pe2e_${slug}_${i}`;
      await client.query(
        `INSERT INTO "Participant"(id, "studyId", "externalId", condition, cohort, status, "consentAt", "orderSeed") VALUES ($1, $2, $3, $4, 'crowd', 'completed', now(), $5)`,
        [pid, studyId, `ext-${i}`, condition, `seed-${i}`],
      );
      for (const [j, itemId] of items.entries()) {
        const right = (i + j) % 3 !== 0 || (condition === "interactive" && j === 0);
        // A wrong answer in the task's grammar: the gold distance moved by one within 1..4.
        const answer = right
          ? golds.get(itemId)!
          : golds.get(itemId)!.replace(/\d$/, (d) => String((Number(d) % 4) + 1));
        await client.query(
          `INSERT INTO "Assignment"(id, "participantId", "itemId", position, phase, status, "firstShownAt") VALUES ($1, $2, $3, $4, 'main', 'answered', now())`,
          [`a_${pid}_${j}`, pid, itemId, j],
        );
        await client.query(
          `INSERT INTO "Response"(id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition, "rawAnswer", "canonicalAnswer", exact, partial, "rtClientMs", "rtServerMs", "shownAt", "idempotencyKey")
           VALUES ($1, $2, $3, $4, $5, 'translation', 1, 'main', $6, $7, $8, $9, $10, 5000, 5200, now(), $11)`,
          [
            `r_${pid}_${j}`,
            `a_${pid}_${j}`,
            pid,
            studyId,
            itemId,
            condition,
            answer,
            answer,
            right ? 1 : 0,
            right ? 1 : 0,
            `r_${pid}_${j}`,
          ],
        );
      }
    }
  } finally {
    await client.end();
  }
}

test("results page: the condition effect, per task and overall, and the planner's condition target", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const single = await createSentinelStudy({ count: 3 });
  await answerInBothConditions(single.slug, single.golds, 1);
  await signInPage(page, E2E_ADMIN, `/admin/results/${await studyIdOf(single.slug)}`);
  const section = page.getByTestId("condition-effect");
  await expect(
    section.getByRole("heading", { level: 2, name: "Condition effect: interactive − static" }),
  ).toBeVisible();
  await expect(section.getByTestId("condition-effect-needs-both")).toContainText("Needs both conditions");
  await expect(section.getByRole("table")).toHaveCount(0);

  const { slug, golds } = await createSentinelStudy({ count: 3, config: { conditions: ["static", "interactive"] } });
  await answerInBothConditions(slug, golds, 6);
  await page.goto(`/admin/results/${await studyIdOf(slug)}`);
  await expect(
    section.getByRole("heading", { level: 2, name: "Condition effect: interactive − static" }),
  ).toBeVisible();
  // Static participants 0, 2, 4 and interactive 1, 3, 5 on items 0..2, right unless (i + j) mod 3 = 0 (interactive always right on item 0):
  // static 6/9, interactive 7/9 → +11.1 pp.
  const overall = section.getByTestId("condition-effect-overall");
  await expect(overall.getByRole("rowheader")).toHaveText("All tasks");
  await expect(overall.getByTestId("condition-effect-estimate")).toHaveText("+11.1 pp");
  await expect(overall.getByRole("cell").nth(2)).toHaveText("9");
  await expect(overall.getByRole("cell").last()).toHaveText(/^\[[−+]?\d+\.\d, [−+]?\d+\.\d\]$/);
  await expect(section.getByTestId("condition-effect-translation").getByTestId("condition-effect-estimate")).toHaveText(
    "+11.1 pp",
  );
  await expect(section.getByTestId("condition-effect-sentence")).toContainText("11.1 percentage points more often");
  await expect(section.getByTestId("condition-effect-sentence")).toContainText(
    "treats each participant's accuracy as one observation",
  );
  // For the closing note and reviewers: the section as a researcher sees it.
  await section.screenshot({ path: test.info().outputPath("condition-effect-section.png") });

  const planner = page.getByTestId("sample-size-planner");
  await planner.getByLabel("condition effect (interactive − static)").check();
  await expect(planner.getByRole("columnheader", { name: "Participants / condition" })).toBeVisible();
  const needed = async () =>
    Number(/(\d+)/.exec((await planner.getByTestId("planner-participants").textContent()) ?? "")![1]);
  await planner.getByLabel("use this study's answers as a pilot (accuracy and ICC)").uncheck();
  const expected = planStudy({
    target: { kind: "condition", difference: 0.1, power: 0.8 },
    columns: ["translation"],
    itemsPerTask: 3,
    answersPerItem: 5,
    assumedIcc: 0.1,
  });
  await expect.poll(needed).toBe(expected.participants);
  expect(expected.columns[0]!.perCondition!.participants * 2).toBe(expected.participants);
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
