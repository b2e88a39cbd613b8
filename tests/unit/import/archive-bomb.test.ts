import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceOpenError, openSourceTree } from "@/lib/server/import/source-tree";
import { hasZipCommand } from "../../fixtures/import/build-fixtures";

/** Decompression bombs: archives that expand hundreds of times their size must stop at the import's inflate limits. */

const MiB = 1024 ** 2;
let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-bomb-test-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A tar.gz of one file of `bytes` zeros (256 MiB gzip to about 250 KB). */
async function zeroTarGz(file: string, bytes: number): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip(), fs.createWriteStream(file));
  // streamx's typings differ from Node's Writable; the calls below are the common ones.
  const entry = pack.entry({ name: "data/zeros.bin", size: bytes }) as unknown as NodeJS.WritableStream;
  const chunk = Buffer.alloc(MiB);
  for (let left = bytes; left > 0; left -= chunk.length) {
    if (!entry.write(left >= chunk.length ? chunk : chunk.subarray(0, left)))
      await new Promise<void>((r) => entry.once("drain", () => r()));
  }
  entry.end();
  pack.finalize();
  await done;
}

/** Sizes of what is left in a temp root (the extraction folder must be gone after a refusal). */
function leftovers(root: string): string[] {
  return fs.readdirSync(root);
}

describe("archive inflate limits", () => {
  it("stops a tar.gz bomb by its expansion ratio soon after 64 MiB, and deletes what it wrote", async () => {
    const bomb = path.join(work, "bomb.tar.gz");
    await zeroTarGz(bomb, 256 * MiB);
    expect(fs.statSync(bomb).size).toBeLessThan(2 * MiB);
    const tempRoot = fs.mkdtempSync(path.join(work, "t-"));
    const failure = await openSourceTree(bomb, { tempRoot }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(SourceOpenError);
    const message = (failure as Error).message;
    expect(message).toMatch(
      /expands more than 200 times its compressed size .*IMPORT_MAX_INFLATE_RATIO.*decompression bomb; stopped there/,
    );
    // Stopped within a few chunks of the point where the ratio check starts (64 MiB), far from the 256 MiB inside.
    const inflatedMiB = Number(/\((\d+(?:\.\d+)?) MiB from/.exec(message)?.[1]);
    expect(inflatedMiB).toBeGreaterThanOrEqual(64);
    expect(inflatedMiB).toBeLessThan(66);
    expect(leftovers(tempRoot)).toEqual([]);
  });

  it("stops a tar.gz at the inflated-bytes cap whatever its ratio", async () => {
    const big = path.join(work, "big.tar.gz");
    await zeroTarGz(big, 40 * MiB);
    const tempRoot = fs.mkdtempSync(path.join(work, "t-"));
    await expect(
      openSourceTree(big, { tempRoot, inflateLimits: { maxBytes: 16 * MiB, maxRatio: 1e9 } }),
    ).rejects.toThrow(/expand to more than 16 MiB \(IMPORT_MAX_INFLATED_BYTES\); stopped there/);
    expect(leftovers(tempRoot)).toEqual([]);
    // Under the cap the same archive opens.
    const tree = await openSourceTree(big, { tempRoot, inflateLimits: { maxBytes: 64 * MiB, maxRatio: 1e9 } });
    expect(tree.files).toEqual([{ path: "data/zeros.bin", size: 40 * MiB }]);
    await tree.close();
  });

  it.runIf(hasZipCommand())("refuses a zip whose entries declare a bomb before inflating anything", async () => {
    const src = path.join(work, "zsrc");
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, "zeros.bin"), Buffer.alloc(100 * MiB));
    const zip = path.join(work, "bomb.zip");
    execFileSync("zip", ["-q", "-9", "-r", zip, "."], { cwd: src });
    fs.rmSync(src, { recursive: true });
    await expect(openSourceTree(zip)).rejects.toThrow(/bomb\.zip: expands more than 200 times its compressed size/);
    await expect(openSourceTree(zip, { inflateLimits: { maxBytes: 50 * MiB, maxRatio: 1e9 } })).rejects.toThrow(
      /more than 50 MiB \(IMPORT_MAX_INFLATED_BYTES\)/,
    );
  });
});
