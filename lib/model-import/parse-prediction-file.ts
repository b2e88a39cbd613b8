import { parseLmmsEvalSamples } from "./lmms-eval";
import { parsePlainCsv } from "./plain-csv";
import { PREDICTION_FORMATS, type PredictionFileResult, type PredictionFormat } from "./types";
import { parseVlmevalkitDelimited, parseVlmevalkitXlsx } from "./vlmevalkit";

/** Largest prediction file accepted, bytes: a full MiSI-Bench test split of predictions is a few MB. */
export const MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024;

/** xlsx files are zip archives: they start with "PK\x03\x04". */
function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * The format of a prediction file from its name and first bytes: .xlsx → VLMEvalKit xlsx,
 * .tsv → VLMEvalKit tsv, .jsonl → lmms-eval samples, .csv → plain `item_id,prediction` when the
 * header has item_id, else VLMEvalKit csv. Null when nothing fits.
 */
export function detectPredictionFormat(fileName: string, bytes: Uint8Array): PredictionFormat | null {
  const name = fileName.toLowerCase();
  if (name.endsWith(".xlsx") || isZip(bytes)) return "vlmevalkit-xlsx";
  if (name.endsWith(".tsv")) return "vlmevalkit-tsv";
  if (name.endsWith(".jsonl") || name.endsWith(".json")) return "lmms-eval-jsonl";
  if (name.endsWith(".csv")) {
    const firstLine =
      new TextDecoder()
        .decode(bytes.subarray(0, 4096))
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)[0] ?? "";
    const header = firstLine.split(",").map((h) => h.trim().replace(/^"|"$/g, "").toLowerCase());
    return header.includes("item_id") ? "plain-csv" : "vlmevalkit-csv";
  }
  return null;
}

export interface PredictionFile {
  fileName: string;
  bytes: Uint8Array;
  /** Overrides detection. */
  format?: PredictionFormat;
  /** xlsx: most bytes the workbook may declare uncompressed (DEFAULT_MAX_XLSX_INFLATED_BYTES otherwise). */
  maxXlsxInflatedBytes?: number;
}

/** Reads a prediction file of any supported format; every problem names the file, line and field. */
export async function parsePredictionFile(input: PredictionFile): Promise<PredictionFileResult> {
  const file = input.fileName;
  if (input.bytes.byteLength > MAX_PREDICTION_FILE_BYTES) {
    return {
      ok: false,
      format: null,
      errors: [
        {
          file,
          line: null,
          field: null,
          problem: `the file is ${input.bytes.byteLength} bytes; the limit is ${MAX_PREDICTION_FILE_BYTES}`,
        },
      ],
    };
  }
  const format = input.format ?? detectPredictionFormat(file, input.bytes);
  if (format === null) {
    return {
      ok: false,
      format: null,
      errors: [
        {
          file,
          line: null,
          field: null,
          problem: `unknown prediction format: expected .xlsx or .tsv (VLMEvalKit), .jsonl (lmms-eval samples) or .csv; formats: ${PREDICTION_FORMATS.join(", ")}`,
        },
      ],
    };
  }
  if (format === "vlmevalkit-xlsx") return parseVlmevalkitXlsx(file, input.bytes, input.maxXlsxInflatedBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(input.bytes);
  } catch {
    return {
      ok: false,
      format,
      errors: [{ file, line: null, field: null, problem: "the file is not valid UTF-8 text" }],
    };
  }
  switch (format) {
    case "vlmevalkit-tsv":
      return parseVlmevalkitDelimited(file, text, "\t");
    case "vlmevalkit-csv":
      return parseVlmevalkitDelimited(file, text, ",");
    case "lmms-eval-jsonl":
      return parseLmmsEvalSamples(file, text);
    case "plain-csv":
      return parsePlainCsv(file, text);
  }
}
