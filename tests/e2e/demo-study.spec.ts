import { expect, test } from "@playwright/test";
import { completeDemo } from "../helpers/demo-walk";
import { countResponses } from "./helpers/participant-fixtures";

test("a participant completes the seeded demo study (items generated from the shipped structures)", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const shots = process.env.SCREENSHOTS_DIR;
  await page.setViewportSize({ width: 1400, height: 1000 });
  const seen = new Set<string>();
  await completeDemo(page, "/s/demo?PROLIFIC_PID=demo-walker&STUDY_ID=demo&SESSION_ID=1", {
    timeoutMs: 15_000,
    onFeedback: async () => {
      if (shots) await page.screenshot({ path: `${shots}/practice-feedback.png` });
    },
    onQuestion: async (label) => {
      const images = page.getByRole("list", { name: "Images" }).getByRole("listitem");
      expect(await images.count()).toBeGreaterThanOrEqual(4);
      // Every image actually loads (opaque ids, served to this participant only).
      await expect
        .poll(() =>
          images
            .locator("img")
            .evaluateAll((imgs) =>
              imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
            ),
        )
        .toBe(true);
      if (shots && !seen.has(label))
        await page.screenshot({ path: `${shots}/${label.replace(/\W+/g, "_")}.png`, fullPage: true });
      seen.add(label);
    },
  });
  await expect(page.getByTestId("completion-code")).toHaveText("DEMO-DONE");
  expect(seen.size).toBe(9);
  // Nine main items plus the practice item.
  expect(await countResponses("demo", "demo-walker")).toBe(10);
});
