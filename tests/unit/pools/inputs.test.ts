import { describe, expect, it } from "vitest";
import {
  ItemListQuerySchema,
  ItemStatusChangeSchema,
  toFilterQueryString,
  toQueryRecord,
} from "@/lib/pools/item-filter";
import { CreatePoolSchema, EditPoolVersionSchema, describeRecipe, parseIdList } from "@/lib/pools/pool-recipe";
import {
  StudyInputSchema,
  StudySlugSchema,
  toExampleParticipantUrl,
  toProlificUrl,
  toSlug,
} from "@/lib/pools/study-input";
import { TASK_IDS } from "@/lib/tasks/types";

describe("item filters", () => {
  it("treats empty form fields as no filter and coerces the page", () => {
    const q = ItemListQuerySchema.parse({ task: "", split: " ", q: "", page: "3", pageSize: "" });
    expect(q).toEqual({ page: 3, pageSize: 50 });
  });

  it("rejects an unknown task, status or source", () => {
    expect(ItemListQuerySchema.safeParse({ task: "T1" }).success).toBe(false);
    expect(ItemListQuerySchema.safeParse({ status: "deleted" }).success).toBe(false);
    expect(ItemListQuerySchema.safeParse({ source: "web" }).success).toBe(false);
    expect(ItemListQuerySchema.safeParse({ pageSize: "1000" }).success).toBe(false);
  });

  it("round-trips a filter through a query string, leaving defaults out", () => {
    const text = toFilterQueryString({ task: "docking", q: "ARG 45", page: 1, pageSize: 50, tag: undefined });
    expect(text).toBe("?task=docking&q=ARG+45");
    expect(ItemListQuerySchema.parse(toQueryRecord(new URLSearchParams(text.slice(1))))).toEqual({
      task: "docking",
      q: "ARG 45",
      page: 1,
      pageSize: 50,
    });
    expect(toQueryRecord({ task: ["rotation", "docking"], q: undefined })).toEqual({ task: "rotation" });
  });

  it("requires a reason for a status change", () => {
    expect(ItemStatusChangeSchema.safeParse({ status: "excluded", reason: "  " }).success).toBe(false);
    expect(ItemStatusChangeSchema.safeParse({ status: "excluded" }).success).toBe(false);
    expect(ItemStatusChangeSchema.parse({ status: "flagged", reason: " blurry image " })).toEqual({
      status: "flagged",
      reason: "blurry image",
    });
  });
});

describe("pool recipes", () => {
  it("defaults a stratified pool to MiSI-Bench(tiny): 50 per task over all nine tasks", () => {
    const p = CreatePoolSchema.parse({ mode: "stratified", name: "tiny" });
    expect(p).toMatchObject({ mode: "stratified", perTask: 50, tasks: [...TASK_IDS], filter: {} });
    expect(TASK_IDS).toHaveLength(9);
  });

  it("validates names, N and seeds", () => {
    expect(CreatePoolSchema.safeParse({ mode: "stratified", name: "" }).success).toBe(false);
    expect(CreatePoolSchema.safeParse({ mode: "stratified", name: "x", perTask: 0 }).success).toBe(false);
    expect(CreatePoolSchema.safeParse({ mode: "stratified", name: "x", seed: "has space" }).success).toBe(false);
    expect(CreatePoolSchema.safeParse({ mode: "stratified", name: "x", tasks: [] }).success).toBe(false);
    expect(CreatePoolSchema.safeParse({ mode: "bogus", name: "x" }).success).toBe(false);
    expect(CreatePoolSchema.parse({ mode: "stratified", name: "x", perTask: "5", seed: "abc-1" })).toMatchObject({
      perTask: 5,
      seed: "abc-1",
    });
  });

  it("splits pasted id lists on commas, spaces and new lines, without duplicates", () => {
    expect(parseIdList(" a1, b2\nc3;a1  \n\n")).toEqual(["a1", "b2", "c3"]);
    expect(parseIdList("")).toEqual([]);
  });

  it("refuses an edit that adds and removes nothing", () => {
    expect(EditPoolVersionSchema.safeParse({ addItemIds: [], removeItemIds: [] }).success).toBe(false);
    expect(EditPoolVersionSchema.parse({ removeItemIds: ["x"] })).toEqual({ addItemIds: [], removeItemIds: ["x"] });
  });

  it("describes recipes in one line", () => {
    expect(
      describeRecipe({
        kind: "stratified",
        filter: { split: "test" },
        tasks: ["a", "b"],
        perTask: 50,
        seed: "s1",
        sortKey: "contentHash",
        shortfalls: [],
      }),
    ).toBe("stratified sample: 50 per task × 2 task(s), seed s1 where split=test");
    expect(describeRecipe({ kind: "edit", basedOnVersion: 2, added: ["x"], removed: [] })).toBe(
      "edit of version 2: +1 / −0 items",
    );
    expect(describeRecipe({ kind: "filter", filter: {}, matched: 12 })).toBe("all active items (12 matched)");
    expect(describeRecipe({ nonsense: true })).toBe("unknown recipe");
  });
});

describe("study input", () => {
  it("accepts URL-safe slugs only", () => {
    expect(StudySlugSchema.parse(" Expert-Pilot-2 ")).toBe("expert-pilot-2");
    for (const bad of ["ab", "-abc", "abc-", "a b c", "ab/cd", "x".repeat(65)])
      expect(StudySlugSchema.safeParse(bad).success, bad).toBe(false);
  });

  it("suggests slugs from names", () => {
    expect(toSlug("Expert pilot — Zürich #2")).toBe("expert-pilot-zurich-2");
    expect(toSlug("A")).toBe("study-a");
    expect(StudySlugSchema.safeParse(toSlug("x".repeat(100))).success).toBe(true);
  });

  it("reports config errors with the field path", () => {
    const r = StudyInputSchema.safeParse({
      name: "s",
      slug: "abc",
      poolVersionId: "v",
      config: { itemsPerTask: 0, conditions: ["static", "static"] },
    });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    expect(paths).toContain("config.itemsPerTask");
  });

  it("builds the Prolific study URL with the configured parameter names", () => {
    const link = "https://study.example.org/s/expert-1";
    expect(
      toProlificUrl(link, { participantParam: "PROLIFIC_PID", studyParam: "STUDY_ID", sessionParam: "SESSION_ID" }),
    ).toBe(
      "https://study.example.org/s/expert-1?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
    );
    const example = new URL(
      toExampleParticipantUrl(link, { participantParam: "pid", studyParam: "sid", sessionParam: "sess" }),
    );
    expect(example.pathname).toBe("/s/expert-1");
    expect([...example.searchParams.keys()]).toEqual(["pid", "sid", "sess"]);
  });
});
