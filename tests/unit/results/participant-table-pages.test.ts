// The results page's per-participant signal table is paginated on the server: a 6,000-participant study rendered the
// whole table (twice: HTML and RSC payload) into a 17.6 MB page.
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ExclusionsView, PARTICIPANT_ROWS_PER_PAGE } from "@/components/results/exclusions";
import type { ExclusionResults } from "@/lib/results/exclusions";

const view = { nParticipants: 250, nResponses: 750, exact: 0.5, paperAverage: null, columns: [] };
const results = {
  policy: {},
  rules: [],
  nParticipants: 250,
  nExcluded: 0,
  nWithoutBrowserSignals: 0,
  all: view,
  kept: view,
  participants: Array.from({ length: 250 }, (_, i) => ({
    participantId: `p${String(i).padStart(3, "0")}`,
    nAnswers: 3,
    nWithSignals: 3,
    hiddenMs: 0,
    hiddenCount: 0,
    blurCount: 0,
    pasteCount: 0,
    pasteChars: 0,
    copyCount: 0,
    webdriver: false,
    nTimed: 3,
    nUnderFloor: 0,
    maxIdenticalRun: 1,
    excludedBy: [],
  })),
} as unknown as ExclusionResults;

const render = (page: number) =>
  renderToStaticMarkup(
    h(ExclusionsView, {
      results,
      studyId: "s1",
      paging: { page, href: (p: number) => `/admin/results/s1?participants=${p}` },
    }),
  );
const rows = (html: string) => [...html.matchAll(/data-participant="(p\d+)"/g)].map((m) => m[1]);

describe("per-participant signal table", () => {
  it("shows one page of rows, with links to the neighbouring pages", () => {
    expect(PARTICIPANT_ROWS_PER_PAGE).toBe(100);
    const first = render(1);
    expect(rows(first)).toHaveLength(100);
    expect(rows(first)[0]).toBe("p000");
    expect(first).toContain("Page 1 of 3");
    expect(first).toContain('href="/admin/results/s1?participants=2#participant-signals"');
    expect(first).not.toContain("Previous");

    const last = render(3);
    expect(rows(last)).toEqual(Array.from({ length: 50 }, (_, i) => `p${200 + i}`));
    expect(last).toContain("Page 3 of 3");
    expect(last).toContain('href="/admin/results/s1?participants=2#participant-signals"');
    expect(last).not.toContain("Next");
    // Out of range: the last page.
    expect(rows(render(99))).toHaveLength(50);
  });
});
