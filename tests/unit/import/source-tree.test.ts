import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceOpenError, openSourceTree, readSmallFile, type SourceTree } from "@/lib/server/import/source-tree";
import { hasZipCommand, tarGzFolder, zipFolder } from "../../fixtures/import/build-fixtures";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-tree-test-"));
  const src = path.join(work, "src");
  fs.mkdirSync(path.join(src, "release", "T1"), { recursive: true });
  fs.writeFileSync(path.join(src, "release", "T1", "data.jsonl"), '{"a":1}\n');
  fs.writeFileSync(path.join(src, "release", "readme.txt"), "hello");
  fs.mkdirSync(path.join(src, "__MACOSX"));
  fs.writeFileSync(path.join(src, "__MACOSX", "junk"), "x");
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function readAll(tree: SourceTree, file: string) {
  return (await readSmallFile(tree, file, 1 << 20)).toString();
}

describe("source trees", () => {
  it("lists a folder (without archiver junk) and reads its files", async () => {
    const tree = await openSourceTree(path.join(work, "src"));
    expect(tree.files).toEqual([
      { path: "release/T1/data.jsonl", size: 8 },
      { path: "release/readme.txt", size: 5 },
    ]);
    expect(await readAll(tree, "release/readme.txt")).toBe("hello");
    await expect(tree.open("../etc/passwd")).rejects.toThrow(/no file/);
    await tree.close();
  });

  it.runIf(hasZipCommand())("reads a zip in place, entry by entry", async () => {
    const zip = path.join(work, "r.zip");
    zipFolder(path.join(work, "src"), zip);
    const tree = await openSourceTree(zip);
    expect(tree.label).toBe("r.zip");
    expect(tree.files.map((f) => f.path)).toEqual(["release/T1/data.jsonl", "release/readme.txt"]);
    expect(await readAll(tree, "release/T1/data.jsonl")).toBe('{"a":1}\n');
    await tree.close();
  });

  it("extracts a tar.gz to a temp folder and deletes it on close", async () => {
    const tgz = path.join(work, "r.tar.gz");
    await tarGzFolder(path.join(work, "src"), tgz);
    const before = new Set(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-import-")));
    const tree = await openSourceTree(tgz);
    const created = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-import-") && !before.has(n));
    expect(created).toHaveLength(1);
    expect(tree.files.map((f) => f.path)).toEqual(["release/T1/data.jsonl", "release/readme.txt"]);
    expect(await readAll(tree, "release/readme.txt")).toBe("hello");
    await tree.close();
    expect(fs.existsSync(path.join(os.tmpdir(), created[0]!))).toBe(false);
  });

  it("mounts archives found inside the import under their own path", async () => {
    const outer = path.join(work, "outer");
    fs.mkdirSync(outer, { recursive: true });
    await tarGzFolder(path.join(work, "src"), path.join(outer, "translation.tar.gz"));
    fs.writeFileSync(path.join(outer, "top.json"), "[]");
    const tree = await openSourceTree(outer);
    expect(tree.files.map((f) => f.path)).toEqual([
      "top.json",
      "translation.tar.gz/release/T1/data.jsonl",
      "translation.tar.gz/release/readme.txt",
    ]);
    expect(await readAll(tree, "translation.tar.gz/release/readme.txt")).toBe("hello");
    await tree.close();
  });

  it("never extracts tar entries outside its folder, and says so", async () => {
    const evil = path.join(work, "evil.tar.gz");
    const pack = tar.pack();
    const done = pipeline(pack, createGzip(), fs.createWriteStream(evil));
    pack.entry({ name: "../escaped.txt" }, "x");
    pack.entry({ name: "ok/file.txt" }, "y");
    pack.entry({ name: "ok/link", type: "symlink", linkname: "/etc/passwd" });
    pack.finalize();
    await done;
    const notes = { skipped: [] as Array<{ file: string; reason: string }> };
    const tree = await openSourceTree(evil, {}, notes);
    expect(tree.files.map((f) => f.path)).toEqual(["ok/file.txt"]);
    expect(notes.skipped).toEqual([
      { file: "../escaped.txt", reason: "unsafe path (absolute or outside the archive)" },
      { file: "ok/link", reason: "symlink entries are not extracted" },
    ]);
    expect(fs.existsSync(path.join(os.tmpdir(), "escaped.txt"))).toBe(false);
    await tree.close();
  });

  it.runIf(hasZipCommand())("fails clearly on truncated archives and empty files", async () => {
    const zip = path.join(work, "r2.zip");
    zipFolder(path.join(work, "src"), zip);
    const truncated = path.join(work, "cut.zip");
    fs.writeFileSync(truncated, fs.readFileSync(zip).subarray(0, 200));
    await expect(openSourceTree(truncated)).rejects.toBeInstanceOf(SourceOpenError);
    await expect(openSourceTree(truncated)).rejects.toThrow(/cannot open the zip archive .*truncated/);

    const tgz = path.join(work, "r2.tar.gz");
    await tarGzFolder(path.join(work, "src"), tgz);
    const bytes = fs.readFileSync(tgz);
    const cutTgz = path.join(work, "cut.tar.gz");
    fs.writeFileSync(cutTgz, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(openSourceTree(cutTgz)).rejects.toThrow(/cannot read the tar.gz archive \(unexpected end of file\)/);

    const empty = path.join(work, "empty.zip");
    fs.writeFileSync(empty, "");
    await expect(openSourceTree(empty)).rejects.toThrow(/the file is empty/);
    await expect(openSourceTree(path.join(work, "missing.zip"))).rejects.toThrow(/does not exist/);
  });
});
