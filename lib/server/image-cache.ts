import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";

/**
 * A bounded in-memory LRU of image bytes, keyed by the sha256 of the bytes themselves (computed here on a miss, so
 * two items sharing a picture share one entry, and a stored hash that is wrong cannot mix two pictures up), with an
 * index from image id to that key. Item images never change once imported (a new import makes new items), so an
 * entry is never stale. The bound is on bytes (IMAGE_CACHE_MB), the least recently served go first; the index holds
 * only ids and hashes (≈ 150 bytes each) and is bounded by count. An image given with its gzip form is kept in that
 * form only (a rendered SVG view: ~50 instead of ~250 KB), so a study's whole pool fits: every browser accepts gzip,
 * and the plain bytes are inflated on demand for a client that does not.
 */
export interface CachedImage {
  data: Uint8Array;
  mimeType: string;
  /** The stored sha256 column (the ETag, as the plain image route sends it). */
  sha256: string;
  /** The same bytes gzip-compressed, for a compressible type when that saves space (counted in the byte bound). */
  gzip?: Uint8Array | null;
}

/** What the cache holds per distinct picture: the plain bytes, or (for a compressible picture) only the gzip form. */
type Bytes = { data: Uint8Array; gzip: null } | { data: null; gzip: Uint8Array };
const sizeOf = (b: Bytes) => (b.data ?? b.gzip).byteLength;

interface IdEntry {
  key: string;
  sha256: string;
  mimeType: string;
}

export class ImageCache {
  private readonly bytes = new Map<string, Bytes>();
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
    const stored = entry === undefined ? undefined : this.bytes.get(entry.key);
    if (!entry || !stored) {
      this.misses++;
      return null;
    }
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.bytes.delete(entry.key);
    this.bytes.set(entry.key, stored);
    this.hits++;
    if (stored.data) return { data: stored.data, gzip: null, mimeType: entry.mimeType, sha256: entry.sha256 };
    const packed = stored.gzip;
    return {
      get data() {
        return new Uint8Array(gunzipSync(packed));
      },
      gzip: packed,
      mimeType: entry.mimeType,
      sha256: entry.sha256,
    };
  }

  set(imageId: string, image: CachedImage): void {
    const key = createHash("sha256").update(image.data).digest("hex");
    if (this.ids.size >= this.maxIds && !this.ids.has(imageId)) this.ids.delete(this.ids.keys().next().value!);
    this.ids.set(imageId, { key, sha256: image.sha256, mimeType: image.mimeType });
    const entry: Bytes = image.gzip ? { data: null, gzip: image.gzip } : { data: image.data, gzip: null };
    if (sizeOf(entry) > this.maxBytes) return;
    const old = this.bytes.get(key);
    if (old) {
      this.bytes.delete(key);
      this.size -= sizeOf(old);
    }
    this.bytes.set(key, entry);
    this.size += sizeOf(entry);
    for (const [k, b] of this.bytes) {
      if (this.size <= this.maxBytes) break;
      this.bytes.delete(k);
      this.size -= sizeOf(b);
    }
  }
}
