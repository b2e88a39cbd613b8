import { describe, expect, it } from "vitest";
import { detectImportKind } from "@/lib/import/detect-kind";

describe("import kind detection", () => {
  it("recognises a bundle by its manifest's format, not by the file name alone", () => {
    expect(
      detectImportKind({
        files: ["b/manifest.json", "b/items.jsonl"],
        manifests: { "b/manifest.json": { format: "misi-baseline-bundle" } },
        tsvHeaders: {},
      }).kind,
    ).toBe("bundle");
    expect(
      detectImportKind({
        files: ["manifest.json", "items.jsonl"],
        manifests: { "manifest.json": { format: "other" } },
        tsvHeaders: {},
      }).kind,
    ).toBe("misi");
  });

  it("calls TSVs with VLMEvalKit columns vlmevalkit, and other record files the MiSI release", () => {
    const header = ["index", "image", "question", "A", "B", "C", "D", "answer", "category"];
    expect(detectImportKind({ files: ["MiSI.tsv"], manifests: {}, tsvHeaders: { "MiSI.tsv": header } }).kind).toBe(
      "vlmevalkit",
    );
    expect(
      detectImportKind({ files: ["MiSI.tsv"], manifests: {}, tsvHeaders: { "MiSI.tsv": ["id", "prompt", "gt"] } }).kind,
    ).toBe("misi");
    expect(detectImportKind({ files: ["a.tsv", "b.jsonl"], manifests: {}, tsvHeaders: { "a.tsv": header } }).kind).toBe(
      "misi",
    );
  });

  it("falls back to structures, and says why when nothing fits", () => {
    expect(
      detectImportKind({ files: ["x/1abc_protein.pdb", "x/1abc_ligand.sdf"], manifests: {}, tsvHeaders: {} }).kind,
    ).toBe("structures");
    expect(detectImportKind({ files: ["README.md", "a.png"], manifests: {}, tsvHeaders: {} })).toEqual({
      kind: null,
      reason: "found no bundle manifest, no JSON/JSONL/CSV/TSV records and no PDB/SDF/MOL2 structures",
    });
  });
});
