import { describe, expect, it, vi } from "vitest";
import { parseStoredStudyConfig, parseStoredStudyConfigText, StudyConfigSchema } from "@/lib/study-config";

describe("parseStoredStudyConfig", () => {
  const stored = { tasks: ["translation"], itemsPerTask: 12, timeLimitSec: 90 };

  it("is the schema's parse, kept by the stored JSON text and frozen for the callers that share it", () => {
    const first = parseStoredStudyConfig(stored);
    expect(first).toEqual(StudyConfigSchema.parse(stored));
    // The same text (a new object, as every database read gives) is the same parsed config.
    expect(parseStoredStudyConfig(JSON.parse(JSON.stringify(stored)))).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tasks)).toBe(true);
    expect(() => (first.tasks as string[]).push("rotation")).toThrow(TypeError);
    // Another config is parsed on its own; the schema's own defaults were not frozen by the first.
    const other = parseStoredStudyConfig({ ...stored, timeLimitSec: null });
    expect(other.timeLimitSec).toBeNull();
    expect(Object.isFrozen(StudyConfigSchema.parse({}).tasks)).toBe(false);
  });

  it("keeps a number beyond a double (jsonb's 1e400, read as Infinity) apart from null", () => {
    const untimed = { ...stored, timeLimitSec: null };
    expect(parseStoredStudyConfig(untimed).timeLimitSec).toBeNull();
    expect(() => parseStoredStudyConfig({ ...stored, timeLimitSec: Infinity })).toThrow();
  });

  it("refuses an invalid stored config every time (nothing is kept for it)", () => {
    const bad = { itemsPerTask: -1 };
    expect(() => parseStoredStudyConfig(bad)).toThrow();
    expect(() => parseStoredStudyConfig(bad)).toThrow();
  });
});

describe("StudyConfigSchema", () => {
  it("refuses a task or a condition listed twice, saying which field", () => {
    const twice = StudyConfigSchema.safeParse({ tasks: ["translation", "rotation", "translation"] });
    expect(twice.success).toBe(false);
    expect(twice.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["tasks", "a task is listed twice"],
    ]);
    const conditions = StudyConfigSchema.safeParse({ conditions: ["static", "static"] });
    expect(conditions.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["conditions", "a condition is listed twice"],
    ]);
    expect(StudyConfigSchema.safeParse({ tasks: ["translation", "rotation"] }).success).toBe(true);
  });
});

describe("parseStoredStudyConfigText", () => {
  const stored = { tasks: ["rotation"], itemsPerTask: 7, timeLimitSec: 45 };
  // As PostgreSQL writes jsonb as text (a space after each colon and comma).
  const text = '{"tasks": ["rotation"], "timeLimitSec": 45, "itemsPerTask": 7}';

  it("is the same parse as the stored object's, kept by the text (a known text is not parsed again)", () => {
    const first = parseStoredStudyConfigText(text);
    expect(first).toEqual(parseStoredStudyConfig(stored));
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(parseStoredStudyConfigText(`${text}`)).toBe(first);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(Object.isFrozen(first)).toBe(true);
    // The text that is the object form's own key is kept apart from it.
    const objectForm = parseStoredStudyConfig(stored);
    expect(parseStoredStudyConfigText(JSON.stringify(stored))).not.toBe(objectForm);
    expect(parseStoredStudyConfigText(JSON.stringify(stored))).toEqual(objectForm);
  });

  it("a text and an object never stand for each other, and bad texts are refused every time", () => {
    // A text handed to the object form is a JSON string, not a config.
    expect(() => parseStoredStudyConfig(text)).toThrow();
    expect(parseStoredStudyConfigText(text).itemsPerTask).toBe(7);
    expect(() => parseStoredStudyConfigText('{"tasks": ["rotation"], "timeLimitSec": 1e400}')).toThrow();
    expect(() => parseStoredStudyConfigText('{"itemsPerTask": -1}')).toThrow();
    expect(() => parseStoredStudyConfigText('{"itemsPerTask": -1}')).toThrow();
    expect(() => parseStoredStudyConfigText("{not json")).toThrow(SyntaxError);
    expect(parseStoredStudyConfigText("{}")).toEqual(StudyConfigSchema.parse({}));
  });
});
