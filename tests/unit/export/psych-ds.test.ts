import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { buildCodebook } from "@/lib/export/codebook";
import {
  buildDatasetDescription,
  buildVariableMeasured,
  PSYCHDS_DATA_FILE_PATTERN,
  PSYCHDS_DATA_FILES,
  PSYCHDS_TRIALS_TABLE,
  psychDsDataFileName,
  psychDsKeywordValue,
} from "@/lib/export/psych-ds";
import schema from "@/lib/export/psych-ds/schema.json";
import { RESPONSES_TABLE } from "@/lib/export/response-table";

const input = {
  study: { id: "cmx4wzcib0029wa7ddkg427it", slug: "pilot-1", name: "Pilot 1" },
  scope: "study" as const,
  poolName: "MiSI tiny",
  poolVersion: 2,
  createdAt: "2026-12-01T16:00:00.000Z",
  nTrials: 260,
  nParticipants: 20,
  nItems: 13,
  appVersion: "misi-baseline 0.1.0",
};

describe("Psych-DS analysis package description", () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it("validates against the shipped Psych-DS schema, which rejects what the standard rejects", () => {
    const description = buildDatasetDescription(input);
    expect(validate(description), JSON.stringify(validate.errors)).toBe(true);
    for (const field of ["@context", "@type", "name", "description", "variableMeasured"]) {
      const { [field]: _dropped, ...rest } = description;
      expect(validate(rest), `without ${field}`).toBe(false);
    }
    expect(validate({ ...description, "@context": "https://example.org" })).toBe(false);
    expect(validate({ ...description, "@type": "CreativeWork" })).toBe(false);
    expect(validate({ ...description, variableMeasured: [] })).toBe(false);
    expect(validate({ ...description, variableMeasured: [{ "@type": "PropertyValue" }] })).toBe(false);
    // The standard's minimal form (plain header strings) is valid too.
    expect(validate({ ...description, variableMeasured: ["participant_id", "rt"] })).toBe(true);
  });

  it("describes every column of every data file once, from the codebook's definitions", () => {
    const variables = buildVariableMeasured();
    const names = variables.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    const codebook = buildCodebook();
    for (const { table } of PSYCHDS_DATA_FILES) {
      for (const column of table.columns) {
        const v = variables.find((x) => x.name === column.key)!;
        expect(v, column.key).toBeDefined();
        const entry = codebook.find((e) => e.table === table.id && e.column === column.key)!;
        // One definition: the description in the dataset is the codebook's (prefixed by file where a header is shared).
        expect(v.description).toContain(entry.description);
        expect(v.additionalType).toBe(entry.type);
      }
    }
    const exact = variables.find((v) => v.name === "exact")!;
    expect(exact.value).toEqual(["0", "1"]);
    expect(variables.find((v) => v.name === "rt_ms")!.unitText).toBe("ms");
  });

  it("trial file: the responses export's columns (recruitment id, raw text, device, phase left out), the fair score and in_results", () => {
    const keys = PSYCHDS_TRIALS_TABLE.columns.map((c) => c.key);
    const expected = RESPONSES_TABLE.columns
      .map((c) => c.key)
      .filter((k) => !["participant_external_id", "raw_answer", "device", "phase"].includes(k));
    expect(keys).toEqual([...expected, "fair_exact", "fair_partial", "fair_f1", "in_results", "excluded"]);
    // 0/1 indicators the scripts filter and sum are integers, like exact.
    for (const key of ["exact", "fair_exact", "in_results", "excluded"])
      expect(PSYCHDS_TRIALS_TABLE.columns.find((c) => c.key === key)!.type, key).toBe("integer");
  });

  it("names data files by keywords as the standard's rule requires", () => {
    expect(psychDsDataFileName("cmx4wzcib0029wa7ddkg427it", "trials")).toBe(
      "study-cmx4wzcib0029wa7ddkg427it_table-trials_data.csv",
    );
    expect(psychDsDataFileName("a-b_c", "items")).toBe("study-abc_table-items_data.csv");
    for (const { keyword } of PSYCHDS_DATA_FILES)
      expect(psychDsDataFileName("x1", keyword)).toMatch(PSYCHDS_DATA_FILE_PATTERN);
    expect("study-1_data.csv").toMatch(PSYCHDS_DATA_FILE_PATTERN);
    expect("study_1_data.csv").not.toMatch(PSYCHDS_DATA_FILE_PATTERN);
    expect(() => psychDsKeywordValue("--")).toThrow(/no letters or digits/);
  });
});
