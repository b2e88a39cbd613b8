import { BUNDLE_FORMAT } from "@/lib/bundle/format";
import type { ImportKind } from "./report";
import { readVlmevalkitHeader } from "./vlmevalkit-row";
import { isStructureFile } from "./structure-files";

export interface KindEvidence {
  files: readonly string[];
  /** Parsed manifest.json contents found at the root or one folder down, by path. */
  manifests: Readonly<Record<string, unknown>>;
  /** Header rows of the .tsv files, by path. */
  tsvHeaders: Readonly<Record<string, readonly string[]>>;
}

const RECORD_FILE = /\.(jsonl|ndjson|json|csv|tsv)$/i;

/**
 * What an import holds, when the user did not say: a bundle (manifest.json of this app's format),
 * VLMEvalKit (only TSVs, each with VLMEvalKit's columns), the MiSI release (any other record
 * files), or structures (PDB/SDF/MOL2 and no record files).
 */
export function detectImportKind(
  evidence: KindEvidence,
): { kind: ImportKind; reason: string } | { kind: null; reason: string } {
  for (const [file, manifest] of Object.entries(evidence.manifests)) {
    if (manifest && typeof manifest === "object" && (manifest as { format?: unknown }).format === BUNDLE_FORMAT) {
      return { kind: "bundle", reason: `${file} declares format ${BUNDLE_FORMAT}` };
    }
  }
  const records = evidence.files.filter((f) => RECORD_FILE.test(f) && !/(^|\/)manifest\.json$/i.test(f));
  const tsvs = records.filter((f) => /\.tsv$/i.test(f));
  if (records.length > 0 && tsvs.length === records.length) {
    const vlm = tsvs.every((f) => {
      const header = evidence.tsvHeaders[f];
      return header !== undefined && readVlmevalkitHeader(header).ok;
    });
    if (vlm)
      return {
        kind: "vlmevalkit",
        reason: `${tsvs.length} TSV file(s) with VLMEvalKit columns (index, question, answer, image/image_path)`,
      };
  }
  if (records.length > 0)
    return { kind: "misi", reason: `${records.length} JSON/JSONL/CSV/TSV file(s) read as MiSI-Bench release records` };
  const structures = evidence.files.filter(isStructureFile);
  if (structures.length > 0)
    return { kind: "structures", reason: `${structures.length} structure file(s) (PDB/SDF/MOL2)` };
  return {
    kind: null,
    reason: "found no bundle manifest, no JSON/JSONL/CSV/TSV records and no PDB/SDF/MOL2 structures",
  };
}
