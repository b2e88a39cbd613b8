import { expect, test, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { e2eDatabaseUrl } from "./helpers/participant-fixtures";
import { E2E_ADMIN, signInPage } from "./helpers/sign-in";

/*
 * The results and monitor screens at 1366×768: the page never scrolls sideways; a table either fits or scrolls
 * inside its own box with its row headers sticky; the human intervals never print as a point; every time shown
 * is UTC and says so. STAFF_SCREENS_DIR=<dir> also saves a full-page screenshot of each screen there.
 */

const VIEWPORT = { width: 1366, height: 768 };
const PEOPLE = 4;

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A closed study over the demo pool (all nine tasks) answered by four participants: every T1 answer right (the
 * paper's human 100 %, where the bootstrap collapses), the other tasks mixed. Returns the study id.
 */
async function seedAnsweredStudy(): Promise<string> {
  const tag = randomBytes(4).toString("hex");
  return withClient(async (c) => {
    const demo = await c.query<{ poolVersionId: string; config: Record<string, unknown> }>(
      `SELECT "poolVersionId", config FROM "Study" WHERE slug = 'demo'`,
    );
    const { poolVersionId, config } = demo.rows[0]!;
    const items = (
      await c.query<{ id: string; taskId: string; taskVersion: number; canonical: string }>(
        `SELECT i.id, i."taskId", i."taskVersion", k.canonical FROM "PoolItem" p JOIN "Item" i ON i.id = p."itemId" JOIN "AnswerKey" k ON k."itemId" = i.id
         WHERE p."poolVersionId" = $1 ORDER BY i."taskId", i.id`,
        [poolVersionId],
      )
    ).rows;
    const studyId = `st_screens_${tag}`;
    await c.query("BEGIN");
    await c.query(
      `INSERT INTO "Study"(id, slug, name, status, "poolVersionId", config, "openedAt", "closedAt") VALUES ($1, $2, $3, 'closed', $4, $5, now() - interval '2 hours', now())`,
      [
        studyId,
        `screens-${tag}`,
        `Screens ${tag}`,
        poolVersionId,
        JSON.stringify({ ...config, practiceItemIds: [], cohortTag: "e2e" }),
      ],
    );
    for (let p = 0; p < PEOPLE; p++) {
      const participantId = `pa_screens_${tag}_${p}`;
      await c.query(
        `INSERT INTO "Participant"(id, "studyId", "externalId", condition, cohort, status, "orderSeed", "consentAt", "completedAt") VALUES ($1, $2, $3, $4, 'e2e', 'completed', $5, now() - interval '1 hour', now())`,
        [participantId, studyId, `screens-${p}`, p % 2 === 0 ? "static" : "interactive", String(p)],
      );
      for (const [position, item] of items.entries()) {
        const right = item.taskId === "translation" || (position + p) % 3 !== 0;
        const wrong =
          items.find((x) => x.taskId === item.taskId && x.canonical !== item.canonical)?.canonical ?? item.canonical;
        const answer = right ? item.canonical : wrong;
        const assignmentId = `as_screens_${tag}_${p}_${position}`;
        await c.query(
          `INSERT INTO "Assignment"(id, "participantId", "itemId", position, phase, status) VALUES ($1, $2, $3, $4, 'main', 'answered')`,
          [assignmentId, participantId, item.id, position],
        );
        await c.query(
          `INSERT INTO "Response"(id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition, "rawAnswer", "canonicalAnswer", exact, partial, "rtServerMs", "idempotencyKey", "submittedAt")
           VALUES ($1, $1, $2, $3, $4, $5, $6, 'main', $7, $8, $8, $9, $10, $11, $1, now() - ($12 || ' minutes')::interval)`,
          [
            assignmentId,
            participantId,
            studyId,
            item.id,
            item.taskId,
            item.taskVersion,
            p % 2 === 0 ? "static" : "interactive",
            answer,
            right ? 1 : 0,
            right ? 1 : 0,
            4000 + 100 * position,
            String(position),
          ],
        );
      }
    }
    await c.query("COMMIT");
    return studyId;
  });
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.STAFF_SCREENS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

interface Overflow {
  page: { scrollWidth: number; innerWidth: number };
  tables: Array<{
    caption: string;
    tableWidth: number;
    boxWidth: number;
    boxScrolls: boolean;
    firstCellSticky: boolean;
    right: number;
  }>;
}

/** Horizontal extent of the page and of every table with the box that holds it. */
async function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll("main table")]
      .filter((t) => (t as HTMLElement).offsetParent !== null)
      .map((t) => {
        const box = t.parentElement as HTMLElement;
        const overflowX = getComputedStyle(box).overflowX;
        const firstCell = t.querySelector("tbody tr > *") as HTMLElement | null;
        return {
          caption: (t.querySelector("caption")?.textContent ?? "").trim().slice(0, 60),
          tableWidth: Math.ceil(t.getBoundingClientRect().width),
          boxWidth: box.clientWidth,
          boxScrolls: overflowX === "auto" || overflowX === "scroll",
          firstCellSticky: firstCell ? getComputedStyle(firstCell).position === "sticky" : false,
          right: Math.ceil(box.getBoundingClientRect().right),
        };
      });
    return { page: { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }, tables };
  });
}

/** STAFF_SCREENS_MEASURE_ONLY=1: print the measurements and take the screenshots without asserting (for a before/after comparison on older code). */
const MEASURE_ONLY = process.env.STAFF_SCREENS_MEASURE_ONLY === "1";

function expectFits(o: Overflow, where: string): void {
  console.log(`[staff-screens] ${where}: ${JSON.stringify(o)}`);
  if (MEASURE_ONLY) return;
  expect(o.page.scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(o.page.innerWidth);
  for (const t of o.tables) {
    expect(t.right, `${where}: the box of "${t.caption}" ends outside the viewport`).toBeLessThanOrEqual(
      o.page.innerWidth,
    );
    if (t.tableWidth > t.boxWidth) {
      expect(
        t.boxScrolls && t.firstCellSticky,
        `${where}: "${t.caption}" (${t.tableWidth} px in ${t.boxWidth} px) overflows without its own scroll and sticky row headers`,
      ).toBe(true);
    }
  }
}

test.use({ viewport: VIEWPORT });

test("results and monitor at 1366×768: nothing overflows the page, intervals never collapse, times are UTC", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const studyId = await seedAnsweredStudy();
  await signInPage(page, E2E_ADMIN, `/admin/results/${studyId}`);
  await expect(page.getByRole("heading", { level: 2, name: "Human results per task" })).toBeVisible();

  if (!MEASURE_ONLY) {
    // The per-task table's main column group fits without scrolling at 1366 px.
    const human = page.getByTestId("human-results");
    const main = human.locator("table").first();
    const fits = await main.evaluate(
      (t) => t.getBoundingClientRect().width <= (t.parentElement as HTMLElement).clientWidth,
    );
    expect(fits, "the per-task table's main columns fit at 1366 px").toBe(true);

    // T1: 4 participants all right → the bootstrap is [100, 100]; the reported interval is clustered Wilson.
    const trans = main.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^Trans / }) });
    const transExact = trans.locator("td[data-interval-method]").first();
    await expect(transExact).toHaveAttribute("data-interval-method", "clustered-wilson");
    await expect(transExact).not.toHaveText(/\[100\.0, 100\.0\]/);
    await expect(page.getByTestId("interval-fallback-note")).toBeVisible();
    await expect(page.getByTestId("interval-rule-note")).toContainText(
      "Wilson interval on the effective number of answers",
    );

    // The paper-style table printed on the page has no point interval.
    await page.getByText("Table 2 (exact match) as LaTeX").click();
    const tex = (await page.getByTestId("paper-table-latex").textContent()) ?? "";
    const intervals = [...tex.matchAll(/\[(\d+\.\d+), (\d+\.\d+)\]/g)];
    expect(intervals.length).toBeGreaterThan(0);
    for (const m of intervals) expect(m[1], `interval ${m[0]}`).not.toBe(m[2]);
    console.log(`[staff-screens] human CI line: ${tex.split("\n").find((l) => l.includes("95\\% CI"))}`);
  }

  if (MEASURE_ONLY) {
    await page.getByText("Table 2 (exact match) as LaTeX").click();
    const tex = (await page.getByTestId("paper-table-latex").textContent()) ?? "";
    console.log(`[staff-screens] human CI line: ${tex.split("\n").find((l) => l.includes("95\\% CI"))}`);
  }
  if (!MEASURE_ONLY) await page.getByText("Intervals for checking and the per-person spread").click();
  await page.getByText("Partial credit (Table 1)").click();
  await page.waitForLoadState("networkidle");
  expectFits(await measure(page), "results");
  await screenshot(page, "results-1366");

  await page.goto(`/admin/studies/${studyId}/monitor`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expectFits(await measure(page), "monitor");
  const times = await page.locator("main time").allTextContents();
  console.log(`[staff-screens] monitor times: ${JSON.stringify(times)}`);
  if (!MEASURE_ONLY) {
    expect(times.length).toBeGreaterThanOrEqual(2);
    for (const t of times) expect(t, "every time on the monitor is labelled UTC").toMatch(/UTC$/);
  }
  await screenshot(page, "monitor-1366");

  await page.goto(`/admin/studies/${studyId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expectFits(await measure(page), "study page");
  if (!MEASURE_ONLY) for (const t of await page.locator("main time").allTextContents()) expect(t).toMatch(/UTC$/);
  await screenshot(page, "study-1366");

  await page.goto("/admin/results");
  expectFits(await measure(page), "results index");
  await screenshot(page, "results-index-1366");

  await page.goto("/admin/studies/new");
  await page.waitForLoadState("networkidle");
  expectFits(await measure(page), "study form");
  await screenshot(page, "study-form-1366");
});
