import { describe, expect, it } from "vitest";
import { TASK_DISPLAY, listTaskDisplayNames, taskDisplayName } from "@/lib/tasks/display-name";
import { TASK_IDS, listTasks } from "@/lib/tasks/registry";

describe("task display names", () => {
  it("match every task module's code and label", () => {
    for (const t of listTasks()) expect(TASK_DISPLAY[t.id]).toEqual({ code: t.code, label: t.label });
    expect(Object.keys(TASK_DISPLAY).sort()).toEqual([...TASK_IDS].sort());
  });

  it("read as code + label, internal ids never", () => {
    expect(taskDisplayName("translation")).toBe("T1 Translation");
    expect(taskDisplayName("residue_ligand")).toBe("T4 Residue–ligand interaction");
    expect(listTaskDisplayNames().map((t) => t.name.slice(0, 2))).toEqual([
      "T1",
      "T2",
      "T3",
      "T4",
      "T5",
      "T6",
      "T7",
      "T8",
      "T9",
    ]);
    for (const { name } of listTaskDisplayNames()) expect(name).not.toMatch(/_/);
  });

  it("show an unknown id as it is", () => {
    expect(taskDisplayName("mystery_task")).toBe("mystery_task");
  });
});
