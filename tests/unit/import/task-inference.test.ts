import { describe, expect, it } from "vitest";
import { inferTaskFromName, inferTaskFromPath, parseTaskList } from "@/lib/import/task-inference";

describe("task names", () => {
  it.each([
    ["Translation", "translation"],
    ["T1", "translation"],
    ["rotation", "rotation"],
    ["Zooming", "zooming"],
    ["zoom", "zooming"],
    ["Residue-Ligand Interaction", "residue_ligand"],
    ["ResLig", "residue_ligand"],
    ["Translation + Rotation", "translation_rotation"],
    ["translation_rotation", "translation_rotation"],
    ["TransRot", "translation_rotation"],
    ["Rotation+Rotation", "rotation_rotation"],
    ["RotRot", "rotation_rotation"],
    ["Ligand Docking", "docking"],
    ["Interaction Location", "interaction_location"],
    ["InterLoc", "interaction_location"],
    ["Pocket-ligand interaction", "pocket_ligand"],
    ["T9", "pocket_ligand"],
  ] as const)("%s → %s", (name, id) => {
    expect(inferTaskFromName(name)).toBe(id);
  });

  it("does not match codes inside words, or unrelated names", () => {
    expect(inferTaskFromName("test1")).toBeNull();
    expect(inferTaskFromName("MiSI-bench")).toBeNull();
    expect(inferTaskFromName("")).toBeNull();
  });

  it("reads paths from the file name outwards", () => {
    expect(inferTaskFromPath("misi/T2_rotation/rotation_rotation.jsonl")).toBe("rotation_rotation");
    expect(inferTaskFromPath("misi/T2_rotation/data.jsonl")).toBe("rotation");
    expect(inferTaskFromPath("release.zip/test/docking/part-0001.json")).toBe("docking");
    expect(inferTaskFromPath("release/test/data.jsonl")).toBeNull();
  });
});

describe("task lists for generation", () => {
  it("reads all, codes and ids, without repeats, and names what it does not know", () => {
    expect(parseTaskList("all")).toMatchObject({
      ok: true,
      tasks: expect.arrayContaining(["translation", "pocket_ligand"]),
    });
    expect(parseTaskList("all").ok && parseTaskList("all")).toMatchObject({ tasks: { length: 9 } });
    expect(parseTaskList("t1, T5,docking,t1")).toEqual({
      ok: true,
      tasks: ["translation", "translation_rotation", "docking"],
    });
    expect(parseTaskList("t10")).toEqual({
      ok: false,
      error: expect.stringMatching(/^unknown task 't10': use all, t1\.\.t9, or ids/),
    });
    expect(parseTaskList(" , ")).toEqual({ ok: false, error: "no task given" });
  });
});
