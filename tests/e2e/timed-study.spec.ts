import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { createSentinelStudy, e2eDatabaseUrl } from "./helpers/participant-fixtures";

/** The participant's assignments in position order, with the server's stamps and any stored response. */
async function assignments(slug: string, externalId: string) {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT a.id, a."questionShownAt" AS "questionShownAt", r."rawAnswer" AS "rawAnswer", r."shownAt" AS "shownAt", r."submittedAt" AS "submittedAt"
         FROM "Assignment" a JOIN "Participant" p ON p.id = a."participantId" JOIN "Study" s ON s.id = p."studyId"
         LEFT JOIN "Response" r ON r."assignmentId" = a.id
        WHERE s.slug = $1 AND p."externalId" = $2 ORDER BY a.position`,
      [slug, externalId],
    );
    return r.rows as {
      id: string;
      questionShownAt: Date | null;
      rawAnswer: string | null;
      shownAt: Date | null;
      submittedAt: Date | null;
    }[];
  } finally {
    await client.end();
  }
}

async function secondsLeft(page: Page): Promise<number> {
  const text = await page.getByText(/^Time left: \d+ s$/).textContent();
  return Number(/(\d+)/.exec(text ?? "")![1]);
}

async function startQuestion(page: Page) {
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toBeVisible();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText(/^Time left: \d+ s$/)).toBeVisible();
}

/**
 * After a reload in the middle of a question already reported shown: straight back to the question and its running
 * countdown, not to the task's instructions (which show no clock while it runs).
 */
async function backInQuestion(page: Page) {
  await expect(page.getByText(/^Time left: \d+ s$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toHaveCount(0);
}

test("timed study: a reload continues the server's countdown instead of restarting it", async ({ page }) => {
  const { slug } = await createSentinelStudy({ count: 2, config: { timeLimitSec: 3600 } });
  await page.goto(`/s/${slug}?PROLIFIC_PID=timed-reload&STUDY_ID=s1&SESSION_ID=x1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  // Time on the instructions screen does not count: the clock starts when the question itself is shown.
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toBeVisible();
  await page.waitForTimeout(1500);
  expect((await assignments(slug, "timed-reload"))[0]!.questionShownAt).toBeNull();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText(/^Time left: \d+ s$/)).toBeVisible();
  const before = await secondsLeft(page);
  expect(before).toBeGreaterThan(3590);
  const stamp = (await assignments(slug, "timed-reload"))[0]!.questionShownAt;
  expect(stamp).not.toBeNull();

  await page.waitForTimeout(2500);
  await page.reload();
  await page.waitForTimeout(1500);
  await backInQuestion(page);
  // A restarted countdown would show 3600 (≥ before); the server's clock has moved on by ≥ 4 s.
  await expect.poll(() => secondsLeft(page)).toBeLessThanOrEqual(before - 4);
  const after = await assignments(slug, "timed-reload");
  expect(after[0]!.questionShownAt!.getTime()).toBe(stamp!.getTime());
});

test("timed study: the time-out is stored after the server's limit, counted from the first display across a reload", async ({
  page,
}) => {
  const { slug } = await createSentinelStudy({ count: 2, config: { timeLimitSec: 6 } });
  await page.goto(`/s/${slug}?PROLIFIC_PID=timed-out&STUDY_ID=s1&SESSION_ID=x1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await startQuestion(page);
  await expect(page.getByText("1 of 2")).toBeVisible();
  const stamp = (await assignments(slug, "timed-out"))[0]!.questionShownAt!;
  await page.reload();
  await backInQuestion(page);
  // Nobody answers: the countdown runs out and the browser moves on to question 2 once the server stored the time-out.
  await expect(page.getByText("2 of 2")).toBeVisible({ timeout: 20_000 });
  const [first] = await assignments(slug, "timed-out");
  expect(first!.rawAnswer).toBe("");
  expect(first!.shownAt!.getTime()).toBe(stamp.getTime());
  expect(first!.questionShownAt!.getTime()).toBe(stamp.getTime());
  // The server accepted it only once its own limit had run out.
  expect(first!.submittedAt!.getTime() - stamp.getTime()).toBeGreaterThanOrEqual(6000);
});

/** Each assignment's image ids, in position order. */
async function imageIdsByAssignment(
  slug: string,
  externalId: string,
): Promise<Array<{ id: string; images: string[] }>> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT a.id, array_agg(im.id ORDER BY im.position) AS images
         FROM "Assignment" a JOIN "Participant" p ON p.id = a."participantId" JOIN "Study" s ON s.id = p."studyId"
         JOIN "ItemImage" im ON im."itemId" = a."itemId"
        WHERE s.slug = $1 AND p."externalId" = $2 GROUP BY a.id, a.position ORDER BY a.position`,
      [slug, externalId],
    );
    return r.rows as Array<{ id: string; images: string[] }>;
  } finally {
    await client.end();
  }
}

test("timed study: no image of a question is requested before the server stamped it shown (no prefetch); the server refuses it before", async ({
  page,
}) => {
  const { slug } = await createSentinelStudy({ count: 2, config: { timeLimitSec: 3600 } });
  // In order: image requests as the browser issues them, and "shown" reports once their response has arrived.
  const log: Array<{ kind: "image"; id: string } | { kind: "shown"; assignmentId: string }> = [];
  page.on("request", (request) => {
    const image = /^\/api\/images\/([A-Za-z0-9]+)$/.exec(new URL(request.url()).pathname);
    if (image) log.push({ kind: "image", id: image[1]! });
  });
  page.on("requestfinished", (request) => {
    if (new URL(request.url()).pathname !== "/api/participant/shown") return;
    log.push({
      kind: "shown",
      assignmentId: (JSON.parse(request.postData() ?? "{}") as { assignmentId: string }).assignmentId,
    });
  });
  const imagesOnScreen = () =>
    expect
      .poll(() =>
        page
          .getByRole("list", { name: "Images" })
          .locator("img")
          .evaluateAll(
            (imgs) =>
              imgs.length === 4 &&
              imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
          ),
      )
      .toBe(true);

  await page.goto(`/s/${slug}?PROLIFIC_PID=timed-noprefetch&STUDY_ID=s1&SESSION_ID=x1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toBeVisible();
  const [first, second] = await imageIdsByAssignment(slug, "timed-noprefetch");
  // Asked directly before the question is shown, the server refuses its images (a clear 409, not the image).
  const early = await page.evaluate(async (id) => {
    const r = await fetch(`/api/images/${id}`);
    return { status: r.status, body: await r.text() };
  }, first!.images[0]!);
  expect(early.status).toBe(409);
  expect(early.body).toContain("has not been shown yet");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("1 of 2")).toBeVisible();
  await imagesOnScreen();
  // Time for a prefetch of question 2 to happen, if there were one.
  await page.waitForTimeout(1500);
  await page.getByLabel(/Your answer/).fill("move x 1");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByText("2 of 2")).toBeVisible();
  await imagesOnScreen();

  for (const a of [first!, second!]) {
    const shownAt = log.findIndex((e) => e.kind === "shown" && e.assignmentId === a.id);
    expect(shownAt, `question ${a.id} was reported shown`).toBeGreaterThanOrEqual(0);
    const requested = log.flatMap((e, i) => (e.kind === "image" && a.images.includes(e.id) ? [i] : []));
    expect(requested.length, "its images were requested").toBeGreaterThanOrEqual(4);
    // Not one request for its images before it was reported shown (the direct probe above is the one exception for question 1).
    const before = requested.filter((i) => i < shownAt);
    expect(before.length).toBe(a === first ? 1 : 0);
  }
});
