import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { QuestionText } from "@/components/study/question-text";
import { defaultReferenceIndex, isOptionImage } from "@/components/study/image-viewer";

const T8 =
  "Consider the hydrogen bond.\nWhich moves bring the midpoint to the centre?\nA. move x 1, move y 2\nB. move x -1, move y 2\nC. move x 3, move y 0\nD. move x 0, move y -4\nAnswer with one letter: A, B, C or D.";

describe("QuestionText", () => {
  it("renders the option lines as a list, not one run-on paragraph", () => {
    const html = renderToStaticMarkup(createElement(QuestionText, { text: T8, optionsShownElsewhere: false }));
    expect(html).toContain('<ul class="space-y-1 pl-1" aria-label="Options">');
    expect(html.match(/<li>/g)).toHaveLength(4);
    expect(html).toContain("<p>Answer with one letter: A, B, C or D.</p>");
    expect(html).not.toMatch(/centre\?\s*A\./);
  });

  it("leaves the options out when the answer widget lists them", () => {
    const html = renderToStaticMarkup(createElement(QuestionText, { text: T8, optionsShownElsewhere: true }));
    expect(html).not.toContain("move x 1, move y 2");
    expect(html).toContain("Which moves bring the midpoint");
  });
});

describe("image viewer reference", () => {
  const img = (caption: string, i: number) => ({ id: `i${i}`, position: i, caption });
  it("compares options with the 'after' image (T5/T6), else the first non-option image", () => {
    const t6 = [
      "Image 1: front view",
      "Image 2: left view",
      "Image 3: top view",
      "Image 4: front view after the two rotations",
      "Image 5: option A",
      "Image 6: option B",
    ].map(img);
    expect(defaultReferenceIndex(t6)).toBe(3);
    expect(isOptionImage(t6[4]!)).toBe(true);
    expect(isOptionImage(t6[0]!)).toBe(false);
    expect(defaultReferenceIndex(["Image 1: option A", "Image 2: front view"].map(img))).toBe(1);
  });
});
