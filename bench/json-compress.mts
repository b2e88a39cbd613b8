/**
 * `npx tsx bench/json-compress.mts`
 *
 * CPU per compression of a participant JSON response (an answer's, ≈ 3 KB): brotli quality 4 and 1, gzip default, on
 * the event loop (…Sync) against zlib's thread pool (the callback API). CPU from process.cpuUsage, which counts every
 * thread of the process, so the pool's work and the hand-off are both in it. Then the event loop's calls again with
 * 16 MB of memory touched before each one, as on a server where other requests ran in between (the cold column).
 * Why lib/server/serving/node-http.ts compresses small bodies synchronously (SYNC_COMPRESS_MAX_BYTES) at quality 1.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const brotliAt = (quality: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
});
const N = 5000;
const link = (i: number) =>
  `/img/${i.toString(16).padStart(64, "0")}.svg?e=1733460000&s=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy`;
const answer = Buffer.from(
  JSON.stringify({
    result: { status: "stored", practiceFeedback: null, ended: null },
    update: {
      progress: { answered: 3, total: 21, practice: 1 },
      current: {
        assignmentId: "8a38a77b-1e9a-4b6a-bc88-581894838fd0",
        item: {
          taskId: "translation",
          question: "Which translation of the ligand turns image 1 into image 4? ".repeat(4),
          images: [0, 1, 2, 3].map((i) => ({ id: `img${i}`, url: link(i), caption: `Image ${i + 1}: view ${i + 1}` })),
        },
      },
      upcomingImageUrls: [4, 5, 6, 7].map(link),
      study: { name: "Demo study", instructions: "Answer each question as precisely as you can. ".repeat(20) },
    },
  }),
);

async function cpuPerCall(f: () => Promise<unknown> | unknown): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < N; i++) await f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / N;
}

const BROTLI = brotliAt(4);
const BROTLI_FAST = brotliAt(1);

// Touches every cache line of 16 MB: what the compressor's tables and the body were is gone from the caches.
const other = Buffer.alloc(16 << 20);
function coldCpuPerCall(f: () => unknown): number {
  const n = 300;
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < other.length; j += 64) other[j]!++;
    const before = process.cpuUsage();
    f();
    const used = process.cpuUsage(before);
    total += used.user + used.system;
  }
  return total / n;
}

console.log(`json-compress: ${answer.byteLength} bytes, ${N} calls each, µs of CPU per call (second of two rounds)`);
for (let round = 0; round < 2; round++) {
  const rows = {
    "brotli q4 on the event loop": await cpuPerCall(() => zlib.brotliCompressSync(answer, BROTLI)),
    "brotli q1 on the event loop": await cpuPerCall(() => zlib.brotliCompressSync(answer, BROTLI_FAST)),
    "brotli q4 in the thread pool": await cpuPerCall(() => brotli(answer, BROTLI)),
    "gzip on the event loop": await cpuPerCall(() => zlib.gzipSync(answer)),
    "gzip in the thread pool": await cpuPerCall(() => gzip(answer)),
  };
  if (round === 1) for (const [name, us] of Object.entries(rows)) console.log(`  ${name}: ${us.toFixed(0)} µs`);
}
for (const [name, f] of Object.entries({
  "brotli q4": () => zlib.brotliCompressSync(answer, BROTLI),
  "brotli q1": () => zlib.brotliCompressSync(answer, BROTLI_FAST),
  gzip: () => zlib.gzipSync(answer),
}))
  console.log(`  ${name} on the event loop, cold caches: ${coldCpuPerCall(f).toFixed(0)} µs, ${f().byteLength} bytes`);
