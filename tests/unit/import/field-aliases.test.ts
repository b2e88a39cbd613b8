import { describe, expect, it } from "vitest";
import { mapFieldNames, normalizeFieldName } from "@/lib/import/field-aliases";

describe("field-name mapping", () => {
  it("ignores case and separators", () => {
    expect(normalizeFieldName("Question_ID")).toBe("questionid");
    expect(normalizeFieldName("image paths")).toBe("imagepaths");
  });

  it("maps odd release keys to roles and lists the rest", () => {
    const m = mapFieldNames(["Question_ID", "Prompt", "GT", "Image_Paths", "PDB_ID", "Difficulty"]);
    expect(m.roles).toEqual({
      id: "Question_ID",
      question: "Prompt",
      answer: "GT",
      images: "Image_Paths",
      pdb: "PDB_ID",
    });
    expect(m.unmapped).toEqual(["Difficulty"]);
    expect(m.optionLetterKeys).toBeNull();
  });

  it("prefers the more specific name when two keys name one role, and says which was ignored", () => {
    const m = mapFieldNames(["index", "question_id", "label", "answer", "task", "category"]);
    expect(m.roles.id).toBe("question_id");
    expect(m.roles.answer).toBe("answer");
    expect(m.roles.task).toBe("task");
    expect(m.shadowed).toEqual(
      expect.arrayContaining([
        { role: "id", used: "question_id", ignored: "index" },
        { role: "answer", used: "answer", ignored: "label" },
        { role: "task", used: "task", ignored: "category" },
      ]),
    );
  });

  it("recognises A–D option columns only as a complete set", () => {
    expect(mapFieldNames(["question", "A", "B", "C", "D", "answer"]).optionLetterKeys).toEqual(["A", "B", "C", "D"]);
    const partial = mapFieldNames(["question", "A", "B", "answer"]);
    expect(partial.optionLetterKeys).toBeNull();
    expect(partial.unmapped).toEqual(["A", "B"]);
  });
});
