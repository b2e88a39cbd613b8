import { describe, expect, it } from "vitest";
import {
  consentTextFor,
  DEFAULT_CONSENT_TEXT,
  estimateDuration,
  itemsPerParticipant,
  StudyConfigSchema,
} from "@/lib/study-config";

const config = (input: Record<string, unknown>) => StudyConfigSchema.parse(input);

describe("consent duration", () => {
  it("follows the study's length: one task × 10 items is minutes, not a fixed 30–45", () => {
    const small = config({ tasks: ["translation"], itemsPerTask: 10 });
    expect(itemsPerParticipant(small)).toBe(10);
    // 120 s + 30 s instructions + 10 × 45..90 s = 600..1050 s → 10 and 17.5 → 20 (5-minute steps above 10) minutes (round down / up)
    expect(estimateDuration(small)).toBe("10–20 minutes");
    const text = consentTextFor(small);
    expect(text).toContain("It takes about 10–20 minutes.");
    expect(text).not.toContain("{duration}");
    expect(text).not.toContain("30–45");
  });

  it("counts practice and attention items, and rounds long studies to 5 minutes", () => {
    const big = config({ itemsPerTask: 5, practiceItemIds: ["p1", "p2"], attentionItemIds: ["a1"] });
    expect(itemsPerParticipant(big)).toBe(9 * 5 + 3);
    // 120 + 270 + 48 × 45 = 2550 s (42.5 min → 40); 120 + 270 + 48 × 90 = 4710 s (78.5 min → 80)
    expect(estimateDuration(big)).toBe("40–80 minutes");
  });

  it("a time limit caps the upper end", () => {
    // 150 s fixed + 10 × 30 s = 450 s → 7–8 minutes
    expect(estimateDuration(config({ tasks: ["translation"], itemsPerTask: 10, timeLimitSec: 30 }))).toBe(
      "7–8 minutes",
    );
  });

  it("uses the median of finished participants once it is known", () => {
    expect(estimateDuration(config({}), 14.2 * 60)).toBe("15 minutes (the median of the participants so far)");
  });

  it("leaves a researcher's own text without the placeholder unchanged", () => {
    expect(consentTextFor(config({ consentText: "Own text, 20 minutes." }))).toBe("Own text, 20 minutes.");
  });

  it("the default text has no line break inside a sentence", () => {
    for (const paragraph of DEFAULT_CONSENT_TEXT.split("\n\n")) {
      expect(paragraph).not.toContain("\n");
      expect(paragraph.trim()).toMatch(/[.:]$/);
    }
  });
});
