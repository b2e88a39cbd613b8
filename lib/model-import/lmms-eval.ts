import type { FileIssue, PredictionFileResult, PredictionRow } from "./types";

/**
 * lmms-eval (and lm-evaluation-harness) `samples_<task>_<date>.jsonl` written with --log_samples:
 * one JSON object per line with `doc_id` (position in the task's dataset), `doc` (the dataset row,
 * images dropped), `target`, `resps` (raw generations, a list per request) and `filtered_resps`
 * (after the task's filters). The item is identified by the first of DOC_KEY_FIELDS found in `doc`;
 * only when none is present does `doc_id` serve, which is a position and matches only an item whose
 * id or external id is that number. The prediction is the first text in `filtered_resps`, else in `resps`.
 */
export const DOC_KEY_FIELDS = ["item_id", "itemId", "index", "id", "question_id"] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The first string found depth-first in a (possibly nested) list, e.g. [["text"]] → "text". */
function firstText(value: Json | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = firstText(v);
      if (t !== undefined) return t;
    }
  }
  return undefined;
}

function keyText(value: Json | undefined): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

export function parseLmmsEvalSamples(file: string, text: string): PredictionFileResult {
  const format = "lmms-eval-jsonl";
  const rows: PredictionRow[] = [];
  const skipped: FileIssue[] = [];
  const warnings: FileIssue[] = [];
  const seen = new Map<string, number>();
  let positional = 0;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let value: Json;
    try {
      value = JSON.parse(raw) as Json;
    } catch (err) {
      skipped.push({
        file,
        line,
        field: null,
        problem: `not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
      });
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      skipped.push({ file, line, field: null, problem: "expected a JSON object per line" });
      return;
    }
    const doc =
      value.doc !== null && typeof value.doc === "object" && !Array.isArray(value.doc) ? value.doc : undefined;
    let key: string | undefined;
    let keyField = "";
    for (const field of DOC_KEY_FIELDS) {
      key = keyText(doc?.[field]);
      if (key !== undefined) {
        keyField = `doc.${field}`;
        break;
      }
    }
    if (key === undefined) {
      key = keyText(value.doc_id);
      keyField = "doc_id";
      if (key !== undefined) positional++;
    }
    if (key === undefined) {
      skipped.push({
        file,
        line,
        field: "doc",
        problem: `no item identifier: expected doc.${DOC_KEY_FIELDS.join(", doc.")} or doc_id`,
      });
      return;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      skipped.push({
        file,
        line,
        field: keyField,
        problem: `${keyField} '${key}' repeats line ${earlier}; only the first prediction is used`,
      });
      return;
    }
    const fromFiltered = firstText(value.filtered_resps);
    const prediction = fromFiltered ?? firstText(value.resps);
    if (prediction === undefined && (value.filtered_resps !== undefined || value.resps !== undefined)) {
      skipped.push({
        file,
        line,
        field: "filtered_resps",
        problem: "the response holds no text (a log-likelihood task?); only generation tasks can be scored",
      });
      return;
    }
    seen.set(key, line);
    const row: PredictionRow = { line, key, keyField, prediction: prediction ?? "" };
    const target = firstText(value.target) ?? keyText(value.target);
    if (target !== undefined && target.trim() !== "") row.reference = target.trim();
    rows.push(row);
  });
  if (positional > 0) {
    warnings.push({
      file,
      line: null,
      field: "doc_id",
      problem: `${positional} sample(s) had no identifier in doc and were matched by doc_id, a position in the dataset; add item_id or index to the task's documents to be sure`,
    });
  }
  if (rows.length === 0) {
    return {
      ok: false,
      format,
      errors: skipped.length > 0 ? skipped : [{ file, line: null, field: null, problem: "the file has no samples" }],
    };
  }
  return { ok: true, format, rows, skipped, warnings };
}
