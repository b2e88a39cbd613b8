import { describe, expect, it } from "vitest";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { ITEM_SUMMARY_TABLE, TASK_SUMMARY_TABLE, toTaskSummaryRows } from "@/lib/export/summary-tables";
import { toVlmevalkitOptions, VLMEVALKIT_TSV_TABLE } from "@/lib/export/vlmevalkit-table";
import { analyzeItems } from "@/lib/results/item-analysis";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { THREE_PARTICIPANTS } from "../results/fixtures";

function summary() {
  const out = summarizeHumanResults(THREE_PARTICIPANTS, { seed: "s1", replicates: 200 });
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value;
}

describe("toTaskSummaryRows", () => {
  const rows = toTaskSummaryRows(summary());
  const cell = (row: (typeof rows)[number], key: string) =>
    toCsvRecord(TASK_SUMMARY_TABLE, row)[listHeader(TASK_SUMMARY_TABLE).indexOf(key)];

  it("has overall, per-condition and per-cohort blocks, each closed by the two averages", () => {
    // Overall: 4 columns (translation, ResLig+, ResLig−, InterLoc) + 2 averages.
    expect(rows.filter((r) => r.groupType === "overall").map((r) => r.column)).toEqual([
      "translation",
      "residue_ligand_pos",
      "residue_ligand_neg",
      "interaction_location",
      "paper_average",
      "all_task_average",
    ]);
    expect([...new Set(rows.filter((r) => r.groupType === "condition").map((r) => r.group))]).toEqual([
      "interactive",
      "static",
    ]);
    expect([...new Set(rows.filter((r) => r.groupType === "cohort").map((r) => r.group))]).toEqual(["bio", "stem"]);
  });

  it("writes the hand-checked numbers: translation 3/6 exact, 4.25/6 partial over 3 participants", () => {
    const t = rows.find((r) => r.groupType === "overall" && r.column === "translation")!;
    expect(cell(t, "n_items")).toBe("2");
    expect(cell(t, "n_participants")).toBe("3");
    expect(cell(t, "n_responses")).toBe("6");
    expect(Number(cell(t, "exact_mean"))).toBeCloseTo(0.5, 12);
    expect(Number(cell(t, "partial_mean"))).toBeCloseTo(4.25 / 6, 12);
    // Participant exact means: P1 1/2, P2 2/2, P3 0/2.
    expect([
      cell(t, "exact_participant_min"),
      cell(t, "exact_participant_median"),
      cell(t, "exact_participant_max"),
    ]).toEqual(["0", "0.5", "1"]);
    expect(Number(cell(t, "chance_exact"))).toBeCloseTo(1 / 9, 12);
    expect(cell(t, "bootstrap_seed")).toBe("s1");
    expect(cell(t, "bootstrap_replicates")).toBe("200");
  });

  it("leaves the averages empty and names the missing columns when the study has too few tasks", () => {
    const avg = rows.find((r) => r.groupType === "overall" && r.column === "paper_average")!;
    expect(cell(avg, "exact_mean")).toBe("");
    expect(cell(avg, "missing_columns")).toBe("rotation zooming docking pocket_ligand");
    expect(cell(avg, "n_items")).toBe("");
  });
});

describe("item summary rows", () => {
  it("writes the answer distribution as JSON, most frequent first", () => {
    const items = analyzeItems(THREE_PARTICIPANTS);
    if (!items.ok) throw new Error("bad fixture");
    const m1 = items.value.find((i) => i.itemId === "m1")!;
    const rec = toCsvRecord(ITEM_SUMMARY_TABLE, { stats: m1, externalId: "17", status: "active", goldAnswer: "A" });
    const at = (k: string) => rec[listHeader(ITEM_SUMMARY_TABLE).indexOf(k)];
    expect(at("answer_distribution")).toBe('{"A":2,"B":1}');
    expect(at("exact_accuracy")).toBe(String(2 / 3));
    expect(at("modal_answer")).toBe("A");
  });
});

describe("VLMEvalKit TSV rows", () => {
  it("uses the T8 option texts, image numbers for T5/T6, and no options for cloze tasks", () => {
    expect(toVlmevalkitOptions("interaction_location", { options: ["move x 1, move y 2", "b", "c", "d"] }, 6)).toEqual([
      "move x 1, move y 2",
      "b",
      "c",
      "d",
    ]);
    expect(toVlmevalkitOptions("translation_rotation", {}, 11)).toEqual(["Image 8", "Image 9", "Image 10", "Image 11"]);
    expect(toVlmevalkitOptions("rotation_rotation", {}, 8)).toEqual(["Image 5", "Image 6", "Image 7", "Image 8"]);
    expect(toVlmevalkitOptions("translation", { pdbId: "1abc" }, 4)).toBeNull();
  });

  it("writes one image as a bare base64 string and several as a JSON list with file names", () => {
    const base = {
      itemId: "it1",
      externalId: null,
      taskId: "translation",
      taskCode: "T1",
      split: "test",
      pdbId: "1abc",
      question: "=q",
      options: null,
      answer: "move x 3",
    };
    const one = toCsvRecord(
      VLMEVALKIT_TSV_TABLE,
      { ...base, imagesBase64: ["QUJD"], imageNames: ["it1_1.png"] },
      { neutralizeFormulas: false },
    );
    const two = toCsvRecord(
      VLMEVALKIT_TSV_TABLE,
      { ...base, imagesBase64: ["QUJD", "REVG"], imageNames: ["it1_1.png", "it1_2.png"] },
      { neutralizeFormulas: false },
    );
    const at = (rec: string[], k: string) => rec[listHeader(VLMEVALKIT_TSV_TABLE).indexOf(k)];
    expect(at(one, "image")).toBe("QUJD");
    expect(at(one, "image_path")).toBe("it1_1.png");
    expect(at(two, "image")).toBe('["QUJD","REVG"]');
    expect(at(two, "image_path")).toBe('["it1_1.png","it1_2.png"]');
    expect(at(one, "question")).toBe("=q");
    expect(listHeader(VLMEVALKIT_TSV_TABLE).slice(0, 10)).toEqual([
      "index",
      "image",
      "image_path",
      "question",
      "A",
      "B",
      "C",
      "D",
      "answer",
      "category",
    ]);
  });
});
