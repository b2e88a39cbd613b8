import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import yauzl from "yauzl";
import { RATIO_CHECK_AFTER_BYTES, formatBytes, heavyBudgets } from "@/lib/server/heavy/budgets";

/**
 * A read-only view of what is being imported: a folder, a zip (read in place, entry by entry), a
 * tar/tar.gz (streamed once to a temporary folder: tar has no index, and records point at images
 * anywhere in the archive), or a single file. Archives inside the import are mounted the same way,
 * under their own path (`release/translation.zip/data.jsonl`), so their names can tell the task.
 * Nothing here ever reads a whole archive into memory.
 */
export interface SourceFile {
  /** POSIX path relative to the import root. */
  path: string;
  size: number;
}

export interface SourceTree {
  /** What the user gave (file or folder name). */
  label: string;
  files: SourceFile[];
  open(filePath: string): Promise<Readable>;
  /**
   * The whole file as bytes, for small files (images, structures) when the tree can do it faster
   * than a stream (a folder: one read call). Absent otherwise; callers fall back to `open`.
   */
  readWhole?(filePath: string): Promise<Buffer>;
  /** Releases file handles and deletes temporary extractions. */
  close(): Promise<void>;
}

/** An archive or folder that cannot be read at all: a fatal import error. */
export class SourceOpenError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Decompression-bomb limits of one import (every archive in it together): the bytes its archives may expand to (tar
 * and tar.gz counted as they inflate, zips by their declared entry sizes, which yauzl enforces while reading) and the
 * largest inflated ÷ compressed ratio once past RATIO_CHECK_AFTER_BYTES. The MiSI-Bench release is about 2 GB of
 * PNGs and JSON, which compress a few times, never hundreds. Defaults and variables: lib/server/heavy/budgets.ts.
 */
export interface InflateLimits {
  maxBytes: number;
  maxRatio: number;
}

export function defaultInflateLimits(): InflateLimits {
  return { maxBytes: heavyBudgets.IMPORT_MAX_INFLATED_BYTES, maxRatio: heavyBudgets.IMPORT_MAX_INFLATE_RATIO };
}

/** An archive that expands past the import's InflateLimits: stopped at once, its partial extraction deleted. */
export class InflateLimitError extends Error {}

/** Counts inflated bytes of one import against its limits (shared by nested archives). */
class InflateBudget {
  inflated = 0;
  constructor(readonly limits: InflateLimits) {}

  /** Adds `bytes` inflated; the archive has given `archiveInflated` from `archiveCompressed` so far. Throws past a limit. */
  add(bytes: number, archiveInflated: number, archiveCompressed: number, archive: string): void {
    this.inflated += bytes;
    this.check(this.inflated, archiveInflated, archiveCompressed, archive);
  }

  check(total: number, inflated: number, compressed: number, archive: string): void {
    if (total > this.limits.maxBytes) {
      throw new InflateLimitError(
        `${archive}: the archives of this import expand to more than ${formatBytes(this.limits.maxBytes)} (IMPORT_MAX_INFLATED_BYTES); stopped there`,
      );
    }
    if (inflated > RATIO_CHECK_AFTER_BYTES && compressed > 0 && inflated / compressed > this.limits.maxRatio) {
      throw new InflateLimitError(
        `${archive}: expands more than ${this.limits.maxRatio} times its compressed size (${formatBytes(inflated)} from ${formatBytes(compressed)}; IMPORT_MAX_INFLATE_RATIO), a decompression bomb; stopped there`,
      );
    }
  }
}

/** Archives nested deeper than this are left as plain files (a zip of zips of zips is not a release layout). */
const MAX_ARCHIVE_NESTING = 2;

/** Folders and files that archivers and operating systems add, never data. */
const IGNORED_NAME = /^(__MACOSX|\.DS_Store|Thumbs\.db|\.git|\.svn|\.ipynb_checkpoints)$|^\._/;

export type ArchiveType = "zip" | "tar" | "tar.gz";

export function archiveTypeOf(name: string): ArchiveType | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".zip")) return "zip";
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".tar")) return "tar";
  return null;
}

/** The archive type from the first bytes (an upload may have lost its extension). */
export async function sniffArchiveType(filePath: string): Promise<ArchiveType | null> {
  const handle = await fsp.open(filePath, "r");
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buf, 0, 512, 0);
    if (
      bytesRead >= 4 &&
      buf[0] === 0x50 &&
      buf[1] === 0x4b &&
      (buf[2] === 0x03 || buf[2] === 0x05) &&
      (buf[3] === 0x04 || buf[3] === 0x06)
    )
      return "zip";
    if (bytesRead >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return "tar.gz";
    if (bytesRead >= 262 && buf.subarray(257, 262).toString("latin1") === "ustar") return "tar";
    return null;
  } finally {
    await handle.close();
  }
}

function isIgnored(relPath: string): boolean {
  return relPath.split("/").some((s) => IGNORED_NAME.test(s));
}

/** Folder tree; symbolic links are not followed (an upload must not reach outside its folder). */
async function openFolderTree(root: string, label: string, cleanup?: () => Promise<void>): Promise<SourceTree> {
  const files: SourceFile[] = [];
  const walk = async (dir: string, rel: string) => {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (IGNORED_NAME.test(e.name)) continue;
      if (e.isDirectory()) await walk(path.join(dir, e.name), childRel);
      else if (e.isFile()) files.push({ path: childRel, size: (await fsp.stat(path.join(dir, e.name))).size });
    }
  };
  await walk(root, "");
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const known = new Set(files.map((f) => f.path));
  return {
    label,
    files,
    async open(filePath) {
      if (!known.has(filePath)) throw new Error(`no file '${filePath}' in ${label}`);
      return fs.createReadStream(path.join(root, ...filePath.split("/")));
    },
    async readWhole(filePath) {
      if (!known.has(filePath)) throw new Error(`no file '${filePath}' in ${label}`);
      return fsp.readFile(path.join(root, ...filePath.split("/")));
    },
    close: async () => {
      await cleanup?.();
    },
  };
}

function singleFileTree(filePath: string, label: string): SourceTree {
  // An uploaded temp file is known by the name the user gave it (it may tell the task).
  const name = path.basename(label) || path.basename(filePath);
  const size = fs.statSync(filePath).size;
  return {
    label: name,
    files: [{ path: name, size }],
    async open(p) {
      if (p !== name) throw new Error(`no file '${p}' in ${name}`);
      return fs.createReadStream(filePath);
    },
    close: async () => {},
  };
}

async function openZipTree(filePath: string, label: string, budget: InflateBudget): Promise<SourceTree> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, { lazyEntries: true, autoClose: false });
  } catch (e) {
    throw new SourceOpenError(
      label,
      `cannot open the zip archive (${(e as Error).message}); is it truncated or not a zip?`,
    );
  }
  const entries = new Map<string, yauzl.Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      if (isIgnored(entry.fileName)) continue;
      entries.set(entry.fileName, entry);
    }
  } catch (e) {
    zip.close();
    throw new SourceOpenError(label, `cannot read the zip archive's directory (${(e as Error).message})`);
  }
  // Declared sizes, checked before anything is inflated (yauzl refuses an entry that inflates past its declaration).
  const declared = [...entries.values()].reduce((sum, e) => sum + e.uncompressedSize, 0);
  try {
    budget.check(budget.inflated + declared, declared, (await fsp.stat(filePath)).size, label);
  } catch (e) {
    zip.close();
    throw e instanceof InflateLimitError ? new SourceOpenError(label, e.message) : e;
  }
  budget.inflated += declared;
  const files = [...entries.values()]
    .map((e) => ({ path: e.fileName, size: e.uncompressedSize }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    label,
    files,
    async open(p) {
      const entry = entries.get(p);
      if (!entry) throw new Error(`no file '${p}' in ${label}`);
      if (entry.isEncrypted()) throw new Error(`'${p}' is encrypted`);
      return zip.openReadStreamPromise(entry);
    },
    close: async () => {
      zip.close();
    },
  };
}

/** Safe relative POSIX path of a tar entry, or null for absolute paths and paths that climb out. */
function safeEntryPath(name: string): string | null {
  const normal = path.posix.normalize(name.replace(/\\/g, "/")).replace(/^(\.\/)+/, "");
  if (normal === "" || normal === "." || normal.startsWith("/") || normal.startsWith("../") || normal === "..")
    return null;
  return normal.replace(/\/$/, "");
}

export interface ExtractNotes {
  /** Entries not extracted (links, devices, unsafe paths), for the report. */
  skipped: Array<{ file: string; reason: string }>;
}

/**
 * Streams a tar or tar.gz into `dest`, counting the bytes as they come out of gunzip against the import's
 * InflateLimits (a 9 MB tar.gz once wrote 2 GB before anything stopped it). Truncated or corrupt input, or an archive
 * over a limit, throws SourceOpenError.
 */
export async function extractTar(
  filePath: string,
  type: "tar" | "tar.gz",
  dest: string,
  label: string,
  notes: ExtractNotes,
  budget: InflateBudget = new InflateBudget(defaultInflateLimits()),
): Promise<void> {
  const extract = tar.extract();
  const source = fs.createReadStream(filePath);
  let compressed = 0;
  let inflated = 0;
  const countIn = new Transform({
    transform(chunk: Buffer, _enc, done) {
      compressed += chunk.length;
      done(null, chunk);
    },
  });
  const countOut = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        inflated += chunk.length;
        // A plain tar stores its bytes as they are: only the total counts.
        budget.add(chunk.length, inflated, type === "tar.gz" ? compressed : inflated, label);
      } catch (e) {
        return done(e as Error);
      }
      done(null, chunk);
    },
  });
  const feed =
    type === "tar.gz"
      ? pipeline(source, countIn, createGunzip(), countOut, extract)
      : pipeline(source, countOut, extract);
  const consume = (async () => {
    for await (const entry of extract) {
      const header = entry.header;
      const rel = safeEntryPath(header.name);
      if (header.type === "file" || header.type === "contiguous-file") {
        if (!rel) notes.skipped.push({ file: header.name, reason: "unsafe path (absolute or outside the archive)" });
        if (rel && !isIgnored(rel)) {
          const target = path.join(dest, ...rel.split("/"));
          await fsp.mkdir(path.dirname(target), { recursive: true });
          await pipeline(entry, fs.createWriteStream(target));
          continue;
        }
      } else if (header.type !== "directory") {
        notes.skipped.push({ file: header.name, reason: `${header.type} entries are not extracted` });
      }
      entry.resume();
    }
  })();
  // Both sides settle before deciding: a limit hit in the feed also ends the consumer with a premature-close error.
  const [fed, consumed] = await Promise.allSettled([feed, consume]);
  const failure = [fed, consumed].find((r) => r.status === "rejected");
  if (failure) {
    extract.destroy();
    const limit = [fed, consumed].find((r) => r.status === "rejected" && r.reason instanceof InflateLimitError) as
      PromiseRejectedResult | undefined;
    if (limit) throw new SourceOpenError(label, (limit.reason as Error).message);
    throw new SourceOpenError(
      label,
      `cannot read the ${type} archive (${((failure as PromiseRejectedResult).reason as Error).message}); is it truncated or corrupt?`,
    );
  }
}

export interface OpenSourceOptions {
  /** Where tar archives are extracted; defaults to the OS temp folder. */
  tempRoot?: string;
  /** Display name (an uploaded temp file keeps the user's file name here). */
  label?: string;
  onPhase?: (phase: "extracting" | "listing", detail: string) => void;
  /** Decompression-bomb limits; defaultInflateLimits() otherwise. */
  inflateLimits?: InflateLimits;
}

async function mountNested(
  tree: SourceTree,
  depth: number,
  options: OpenSourceOptions,
  notes: ExtractNotes,
  budget: InflateBudget,
): Promise<SourceTree> {
  const archives = depth < MAX_ARCHIVE_NESTING ? tree.files.filter((f) => archiveTypeOf(f.path)) : [];
  if (archives.length === 0) return tree;
  const mounted = new Map<string, SourceTree>();
  const tempFiles: string[] = [];
  try {
    for (const a of archives) {
      // A nested archive must be a real file for random access (zip) or extraction (tar).
      const tmp = await fsp.mkdtemp(path.join(options.tempRoot ?? os.tmpdir(), "misi-nested-"));
      tempFiles.push(tmp);
      const local = path.join(tmp, path.basename(a.path));
      await pipeline(await tree.open(a.path), fs.createWriteStream(local));
      const inner = await openArchiveOrFile(local, `${tree.label}/${a.path}`, depth + 1, options, notes, budget);
      mounted.set(a.path, inner);
    }
  } catch (e) {
    for (const t of mounted.values()) await t.close();
    for (const t of tempFiles) await fsp.rm(t, { recursive: true, force: true });
    throw e;
  }
  const files = [
    ...tree.files.filter((f) => !mounted.has(f.path)),
    ...[...mounted].flatMap(([prefix, t]) => t.files.map((f) => ({ path: `${prefix}/${f.path}`, size: f.size }))),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    label: tree.label,
    files,
    async open(p) {
      for (const [prefix, t] of mounted) if (p.startsWith(`${prefix}/`)) return t.open(p.slice(prefix.length + 1));
      return tree.open(p);
    },
    async close() {
      for (const t of mounted.values()) await t.close();
      for (const t of tempFiles) await fsp.rm(t, { recursive: true, force: true });
      await tree.close();
    },
  };
}

async function openArchiveOrFile(
  filePath: string,
  label: string,
  depth: number,
  options: OpenSourceOptions,
  notes: ExtractNotes,
  budget: InflateBudget,
): Promise<SourceTree> {
  const type = archiveTypeOf(filePath) ?? (await sniffArchiveType(filePath));
  if (type === "zip") return mountNested(await openZipTree(filePath, label, budget), depth, options, notes, budget);
  if (type === "tar" || type === "tar.gz") {
    const dest = await fsp.mkdtemp(path.join(options.tempRoot ?? os.tmpdir(), "misi-import-"));
    options.onPhase?.("extracting", label);
    try {
      await extractTar(filePath, type, dest, label, notes, budget);
    } catch (e) {
      await fsp.rm(dest, { recursive: true, force: true });
      throw e;
    }
    const tree = await openFolderTree(dest, label, () => fsp.rm(dest, { recursive: true, force: true }));
    return mountNested(tree, depth, options, notes, budget);
  }
  return singleFileTree(filePath, label);
}

/** Opens a folder, an archive or a single file for import. Throws SourceOpenError when it cannot be read. */
export async function openSourceTree(
  inputPath: string,
  options: OpenSourceOptions = {},
  notes: ExtractNotes = { skipped: [] },
): Promise<SourceTree> {
  const label = options.label ?? path.basename(inputPath);
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(inputPath);
  } catch {
    throw new SourceOpenError(label, `'${inputPath}' does not exist or cannot be read`);
  }
  options.onPhase?.("listing", label);
  const budget = new InflateBudget(options.inflateLimits ?? defaultInflateLimits());
  if (stat.isDirectory()) return mountNested(await openFolderTree(inputPath, label), 0, options, notes, budget);
  if (!stat.isFile()) throw new SourceOpenError(label, `'${inputPath}' is neither a file nor a folder`);
  if (stat.size === 0) throw new SourceOpenError(label, "the file is empty");
  return openArchiveOrFile(inputPath, label, 0, options, notes, budget);
}

/** Reads a small file of the tree whole (manifests, structure files), refusing anything over `maxBytes`. */
export async function readSmallFile(tree: SourceTree, filePath: string, maxBytes: number): Promise<Buffer> {
  const listed = tree.files.find((f) => f.path === filePath);
  if (tree.readWhole && listed && listed.size <= maxBytes) return tree.readWhole(filePath);
  const stream = await tree.open(filePath);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      stream.destroy();
      throw new Error(`'${filePath}' is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
