import { createHash } from "node:crypto";

/**
 * A bounded in-memory LRU of image bytes, keyed by the sha256 of the bytes themselves (computed here on a miss, so
 * two items sharing a picture share one entry, and a stored hash that is wrong cannot mix two pictures up), with an
 * index from image id to that key. Item images never change once imported (a new import makes new items), so an
 * entry is never stale. The bound is on bytes (IMAGE_CACHE_MB), the least recently served go first; the index holds
 * only ids and hashes (≈ 150 bytes each) and is bounded by count.
 */
export interface CachedImage {
  data: Uint8Array;
  mimeType: string;
  /** The stored sha256 column (the ETag, as the plain image route sends it). */
  sha256: string;
}

interface IdEntry {
  key: string;
  sha256: string;
  mimeType: string;
}

export class ImageCache {
  private readonly bytes = new Map<string, Uint8Array>();
  private readonly ids = new Map<string, IdEntry>();
  private size = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxIds = 200_000,
  ) {}

  get usedBytes(): number {
    return this.size;
  }

  get(imageId: string): CachedImage | null {
    const entry = this.ids.get(imageId);
    const data = entry === undefined ? undefined : this.bytes.get(entry.key);
    if (!entry || !data) {
      this.misses++;
      return null;
    }
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.bytes.delete(entry.key);
    this.bytes.set(entry.key, data);
    this.hits++;
    return { data, mimeType: entry.mimeType, sha256: entry.sha256 };
  }

  set(imageId: string, image: CachedImage): void {
    const key = createHash("sha256").update(image.data).digest("hex");
    if (this.ids.size >= this.maxIds && !this.ids.has(imageId)) this.ids.delete(this.ids.keys().next().value!);
    this.ids.set(imageId, { key, sha256: image.sha256, mimeType: image.mimeType });
    if (image.data.byteLength > this.maxBytes) return;
    const old = this.bytes.get(key);
    if (old) {
      this.bytes.delete(key);
      this.size -= old.byteLength;
    }
    this.bytes.set(key, image.data);
    this.size += image.data.byteLength;
    for (const [k, data] of this.bytes) {
      if (this.size <= this.maxBytes) break;
      this.bytes.delete(k);
      this.size -= data.byteLength;
    }
  }
}
