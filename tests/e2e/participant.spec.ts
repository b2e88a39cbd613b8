import { expect, test, type Page } from "@playwright/test";
import { threeDUsageOf, type InteractionLogInput } from "@/lib/results/three-d-usage";
import {
  countResponses,
  createSentinelStudy,
  GOLD_SENTINEL,
  interactionLogs,
  studyIdOf,
  tinyScene3d,
} from "./helpers/participant-fixtures";
import { E2E_ADMIN, signInPage } from "./helpers/sign-in";

async function answerCurrent(page: Page, text: string) {
  await page.getByLabel(/Your answer/).fill(text);
  await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
  await page.getByRole("button", { name: "Submit answer" }).click();
}

test("a participant goes from the study link to the completion code; a reload resumes; nothing leaks", async ({
  page,
}) => {
  const { slug } = await createSentinelStudy({ count: 3 });
  // An untimed study reports no "question shown" (#31): the answer carries the question's display time.
  const shownPosts: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/participant/shown") shownPosts.push(request.url());
  });
  const bodies: string[] = [];
  page.on("response", async (response) => {
    const type = response.request().resourceType();
    if (["document", "fetch", "xhr", "script", "image"].includes(type)) {
      const body = await response.body().catch(() => Buffer.alloc(0));
      bodies.push(`${response.url()}\n${body.toString("utf8")}`);
    }
  });

  await page.goto(`/s/${slug}?PROLIFIC_PID=e2e-p1&STUDY_ID=s1&SESSION_ID=x1`);
  await expect(page.getByRole("heading", { name: "Consent" })).toBeVisible();
  await expect(page.getByText("E2E consent text.")).toBeVisible();
  await page.getByRole("button", { name: /I agree/ }).click();

  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toBeVisible();
  await expect(page.getByRole("img", { name: "Screen axes" })).toBeVisible();
  await page.getByRole("button", { name: "Start" }).click();

  await expect(page.getByText("1 of 3")).toBeVisible();
  await expect(page.getByRole("list", { name: "Images" }).getByRole("listitem")).toHaveCount(4);
  // A reload on the task's first question goes straight back to it: this tab displayed it (no server stamp, untimed).
  await page.reload();
  await expect(page.getByRole("list", { name: "Images" }).getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toHaveCount(0);
  // Live grammar feedback: an invalid answer is explained and cannot be submitted.
  await page.getByLabel(/Your answer/).fill("move w 3");
  await expect(page.locator("#answer-feedback")).toContainText(/axis/);
  await expect(page.getByRole("button", { name: "Submit answer" })).toBeDisabled();
  // The widget writes the canonical text.
  await page.getByText("x", { exact: true }).click();
  await page.getByRole("button", { name: "increase distance" }).click();
  await expect(page.getByLabel(/Your answer/)).toHaveValue("move x 1");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByText("2 of 3")).toBeVisible();

  // A second browser with the same PROLIFIC_PID resumes the same session at the same question.
  const other = await page.context().browser()!.newContext();
  const page2 = await other.newPage();
  // A question of the task is answered (the session read says so), so the task's instructions are not repeated.
  await page2.goto(`/s/${slug}?PROLIFIC_PID=e2e-p1&STUDY_ID=s1&SESSION_ID=x1`);
  await expect(page2.getByText("2 of 3")).toBeVisible();
  await expect(page2.getByRole("heading", { name: /Instructions: Translation/ })).toHaveCount(0);
  await other.close();

  // A reload resumes at the first unanswered question, in the same session, straight back in the question.
  await page.reload();
  await expect(page.getByText("2 of 3")).toBeVisible();
  await expect(page.getByRole("heading", { name: /Instructions: Translation/ })).toHaveCount(0);
  await answerCurrent(page, "move y -2");
  await expect(page.getByText("3 of 3")).toBeVisible();
  await answerCurrent(page, "MOVE X +4");

  await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();
  await expect(page.getByTestId("completion-code")).toHaveText("C0DE42");
  expect(await countResponses(slug, "e2e-p1")).toBe(3);
  expect(shownPosts).toEqual([]);

  // Re-entering with the same external id resumes the completed session instead of starting a new one.
  await page.goto(`/s/${slug}?PROLIFIC_PID=e2e-p1&STUDY_ID=s1&SESSION_ID=x1`);
  await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();

  // The answer key never reached the browser: not in HTML, RSC payloads, JSON, JS or images; no scores either.
  expect(bodies.length).toBeGreaterThan(10);
  const all = bodies.join("\n");
  expect(all).not.toContain(GOLD_SENTINEL);
  expect(all).not.toMatch(/"(gold|answerKey|distractors|exact|partial)"\s*:/);
  // Image URLs are opaque ids or links named by the picture's content hash, and alt texts/captions carry no answers.
  const imageUrls = bodies.map((b) => b.split("\n")[0]!).filter((u) => u.includes("/api/images/"));
  expect(imageUrls.length).toBeGreaterThan(0);
  for (const u of imageUrls)
    expect(u).toMatch(/\/api\/images\/(?:[A-Za-z0-9]+|c\/[0-9a-f]{64}\.svg\?e=[0-9]+&s=[A-Za-z0-9_-]{22})$/);
});

test("a submit whose response is lost is retried with the same key and stored once", async ({ page }) => {
  const { slug } = await createSentinelStudy({ count: 2 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=e2e-p2`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  let dropped = 0;
  await page.route("**/api/participant/answer", async (route) => {
    if (dropped === 0) {
      dropped++;
      await route.fetch(); // the server stores the answer…
      await route.abort("connectionreset"); // …but the browser never hears back
      return;
    }
    await route.continue();
  });
  await answerCurrent(page, "move x 2");
  await expect(page.getByText("2 of 2")).toBeVisible();
  expect(dropped).toBe(1);
  expect(await countResponses(slug, "e2e-p2")).toBe(1);
  // Double-click: one stored response.
  await page.getByLabel(/Your answer/).fill("move y 1");
  await page.getByRole("button", { name: "Submit answer" }).dblclick();
  await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();
  expect(await countResponses(slug, "e2e-p2")).toBe(2);
});

test("while the server cannot be reached the browser says it is reconnecting, keeps the answer and stores it once", async ({
  page,
}) => {
  const { slug } = await createSentinelStudy({ count: 2 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=e2e-p3`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  let refused = 0;
  await page.route("**/api/participant/answer", async (route) => {
    // Four failed attempts: 503s and a dropped connection (the retry budget itself is unit-tested).
    if (refused < 4) {
      refused++;
      if (refused === 3) await route.abort("connectionreset");
      else
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "UNAVAILABLE", message: "busy" } }),
        });
      return;
    }
    await route.continue();
  });
  await page.getByLabel(/Your answer/).fill("move x 2");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Reconnecting/ })).toBeVisible();
  await expect(page.getByLabel(/Your answer/)).toHaveValue("move x 2");
  await expect(page.getByText("2 of 2")).toBeVisible({ timeout: 30_000 });
  expect(refused).toBe(4);
  expect(await countResponses(slug, "e2e-p3")).toBe(1);
});

test("closed and unknown study links say so", async ({ page }) => {
  await page.goto("/s/no-such-study");
  await expect(page.getByRole("heading", { name: "Study not found" })).toBeVisible();
  await page.goto("/s/no-such-study/session");
  await expect(page.getByRole("heading", { name: "Session not found" })).toBeVisible();
});

test("interactive condition: the 3D view draws, rotates, and the camera path is saved with the answer; a researcher replays it", async ({
  page,
  browser,
}) => {
  const { slug } = await createSentinelStudy({
    count: 1,
    config: { conditions: ["interactive"] },
    scene3d: tinyScene3d(),
  });
  const sceneJson: string[] = [];
  page.on("response", async (r) => {
    if (r.url().includes("/api/participant/session") || r.url().includes("/api/participant/consent"))
      sceneJson.push(await r.text().catch(() => ""));
  });
  await page.goto(`/s/${slug}?PROLIFIC_PID=e2e-3d`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  const viewer = page.getByTestId("molecule-viewer");
  await expect(viewer).toHaveAttribute("data-ready", "true");
  // Static images stay available next to the 3D view.
  await expect(page.getByRole("list", { name: "Images" }).getByRole("listitem")).toHaveCount(4);
  const countPixels = () =>
    page.evaluate(() => {
      const c = document.querySelector("[data-testid=molecule-viewer] canvas") as HTMLCanvasElement;
      const gl = (c.getContext("webgl2") || c.getContext("webgl")) as WebGLRenderingContext;
      const px = new Uint8Array(4 * c.width * c.height);
      gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
      let lit = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! + px[i + 1]! + px[i + 2]! > 60) lit++;
      return { lit, total: c.width * c.height };
    });
  await expect.poll(async () => (await countPixels()).lit, { timeout: 10_000 }).toBeGreaterThan(500);
  const box = (await viewer.locator("canvas").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(box.x + box.width / 2 + i * 15, box.y + box.height / 2 + i * 4);
    await page.waitForTimeout(40);
  }
  await page.mouse.up();
  await page.waitForTimeout(600);
  // Reset view, then turn again: the reset's jump back to the front view is logged as an event, not as a turn.
  await viewer.getByRole("button", { name: "Reset view" }).click();
  await expect(viewer).toHaveAttribute("data-ready", "true");
  await page.waitForTimeout(400);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) {
    await page.mouse.move(box.x + box.width / 2 - i * 15, box.y + box.height / 2);
    await page.waitForTimeout(40);
  }
  await page.mouse.up();
  await page.waitForTimeout(600);
  await answerCurrent(page, "move x 1");
  await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();
  const [log] = (await interactionLogs(slug, "e2e-3d")) as Array<{
    camera: Array<{ t: number; q: number[]; d: number }>;
    events: Array<{ t: number; type: string; detail?: string }>;
  }>;
  expect(log!.events.filter((e) => e.type === "viewer").map((e) => e.detail)).toEqual(["start", "reset"]);
  const usage = threeDUsageOf(log as InteractionLogInput, null)!;
  expect(usage.resets).toBe(1);
  expect(usage.rotationDeg).toBeGreaterThan(15);
  expect(log!.camera.length).toBeGreaterThan(1);
  const first = log!.camera[0]!;
  const last = log!.camera.at(-1)!;
  expect(first.q).toEqual([0, 0, 0, 1]); // starts at the static front view
  expect(last.q).not.toEqual([0, 0, 0, 1]); // the drag rotated the camera
  // The 3D scene is served on its own route, not inside the question payload.
  expect(sceneJson.join("")).not.toContain("residueIndex");

  // The researcher sees the answer in the 3D-usage table and replays its camera path on the scene.
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInPage(admin, E2E_ADMIN, `/admin/results/${await studyIdOf(slug)}`);
  const table = admin.getByTestId("three-d-usage");
  await expect(
    table
      .getByRole("row", { name: /T1 Translation/ })
      .getByRole("cell")
      .first(),
  ).toHaveText("1");
  await admin.locator("#three-d").screenshot({ path: "test-results/three-d-usage-section.png" });
  await table.getByRole("link", { name: /Replay a typical answer/ }).click();
  const replay = admin.getByTestId("camera-replay");
  await expect(replay.locator("canvas")).toBeVisible();
  const time = replay.getByTestId("replay-time");
  const before = await time.textContent();
  await replay.getByRole("button", { name: "Play" }).click();
  await expect(time).not.toHaveText(before ?? "");
  await replay.screenshot({ path: "test-results/camera-replay.png" });
  await staff.close();
});
