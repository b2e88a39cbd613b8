/**
 * Import benchmark (not a test): builds a large synthetic input in the temp folder and imports it
 * as a dry run (everything but the INSERTs: reading, parsing, grammar checks, image decoding and
 * hashing, duplicate look-ups), printing throughput and the process's peak memory. The point is
 * that memory stays flat however large the input: nothing reads a whole archive.
 *
 *   DATABASE_URL=postgresql://… npm run bench:import -- [--tsv-mb 1024] [--zip-mb 256] [--keep]
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { disconnectDb } from "@/lib/server/db";
import { runImport } from "@/lib/server/import/run-import";

/** Bytes of each synthetic image (a PNG signature, then noise: incompressible, like real renders). */
const IMAGE_BYTES = 48 * 1024;
const ZIP_IMAGES_PER_ITEM = 4;
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    "tsv-mb": { type: "string", default: "1024" },
    "zip-mb": { type: "string", default: "256" },
    keep: { type: "boolean", default: false },
  },
});
if (!process.env.DATABASE_URL) {
  console.error("Set DATABASE_URL to a PostgreSQL database (the dry run looks up duplicates there).");
  process.exit(2);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const image = () => Buffer.concat([PNG_SIGNATURE, randomBytes(IMAGE_BYTES - PNG_SIGNATURE.length)]);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-bench-import-"));
const tag = randomBytes(4).toString("hex");

async function writeStreamed(file: string, lines: (i: number) => string, count: number) {
  const out = fs.createWriteStream(file);
  for (let i = 0; i < count; i++) {
    if (!out.write(lines(i))) await new Promise<void>((resolve) => out.once("drain", resolve));
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

async function measure(label: string, inputPath: string) {
  const bytes = fs.statSync(inputPath).size;
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const result = await runImport({ inputPath, dryRun: true });
  const seconds = (performance.now() - t0) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const r = result.report;
  console.log(`\n${label}: ${(bytes / MB).toFixed(0)} MB, ${r.recordsRead} records`);
  console.log(
    `  status ${result.status}; would import ${r.imported}, duplicates ${r.duplicates}, skipped ${r.counts.skipped}, errors ${r.counts.errors}`,
  );
  console.log(
    `  ${seconds.toFixed(1)} s  →  ${(bytes / MB / seconds).toFixed(1)} MB/s, ${(r.recordsRead / seconds).toFixed(0)} records/s`,
  );
  console.log(
    `  RSS before ${(rssBefore / MB).toFixed(0)} MB, peak RSS so far ${peakRssMb.toFixed(0)} MB (input is ${(bytes / MB).toFixed(0)} MB)`,
  );
}

try {
  // 1. A VLMEvalKit TSV with one base64 image per row.
  const tsvMb = Number(values["tsv-mb"]);
  if (tsvMb > 0) {
    const rowBytes = Math.ceil((IMAGE_BYTES * 4) / 3) + 200;
    const rows = Math.ceil((tsvMb * MB) / rowBytes);
    const tsv = path.join(work, "MiSI_bench_translation.tsv");
    const t0 = performance.now();
    await writeStreamed(
      tsv,
      (i) =>
        (i === 0 ? "index\timage\tquestion\tanswer\tcategory\n" : "") +
        `${tag}-${i}\t${image().toString("base64")}\tWhich translation? #${i} ${tag}\tmove x ${(i % 9) - 4}\tTranslation\n`,
      rows,
    );
    console.log(`wrote ${tsv} (${rows} rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await measure("VLMEvalKit TSV (base64 images, streamed with csv-parse)", tsv);
  }

  // 2. A MiSI-style zip: JSONL records pointing at image files (stored, so yauzl reads them as they are).
  const zipMb = Number(values["zip-mb"]);
  if (zipMb > 0) {
    const items = Math.ceil((zipMb * MB) / (IMAGE_BYTES * ZIP_IMAGES_PER_ITEM));
    const dir = path.join(work, "release", "T2_rotation");
    fs.mkdirSync(path.join(dir, "images"), { recursive: true });
    for (let i = 0; i < items; i++)
      for (let k = 0; k < ZIP_IMAGES_PER_ITEM; k++)
        fs.writeFileSync(path.join(dir, "images", `${i}_${k}.png`), image());
    await writeStreamed(
      path.join(dir, "data.jsonl"),
      (i) =>
        `${JSON.stringify({ question_id: `${tag}-${i}`, prompt: `Which rotation? #${i} ${tag}`, gt: `roll y ${15 * ((i % 13) - 6)}`, image_paths: Array.from({ length: ZIP_IMAGES_PER_ITEM }, (_, k) => `images/${i}_${k}.png`) })}\n`,
      items,
    );
    const zip = path.join(work, "release.zip");
    execFileSync("zip", ["-q0r", zip, "."], { cwd: path.join(work, "release") });
    fs.rmSync(path.join(work, "release"), { recursive: true, force: true });
    await measure(`MiSI-style zip (${ZIP_IMAGES_PER_ITEM} image files per record, read entry by entry)`, zip);
  }
} finally {
  if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  await disconnectDb();
}
