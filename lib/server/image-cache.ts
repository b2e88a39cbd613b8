/**
 * A bounded in-memory LRU of image bytes, keyed by the image's sha256 (two items sharing a picture share one entry),
 * with a small index from image id to sha256. Item images never change once imported (a new import makes new items),
 * so an entry is never stale; the bound is on bytes (IMAGE_CACHE_MB), and the least recently served go first. The
 * index holds only ids and hashes (≈ 100 bytes each) and is bounded by count.
 */
export interface CachedImage {
  data: Uint8Array;
  mimeType: string;
  sha256: string;
}

export class ImageCache {
  private readonly bytes = new Map<string, CachedImage>();
  private readonly ids = new Map<string, string>();
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
    const sha = this.ids.get(imageId);
    const entry = sha === undefined ? undefined : this.bytes.get(sha);
    if (!entry) {
      this.misses++;
      return null;
    }
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.bytes.delete(entry.sha256);
    this.bytes.set(entry.sha256, entry);
    this.hits++;
    return entry;
  }

  set(imageId: string, image: CachedImage): void {
    if (this.ids.size >= this.maxIds && !this.ids.has(imageId)) this.ids.delete(this.ids.keys().next().value!);
    this.ids.set(imageId, image.sha256);
    if (image.data.byteLength > this.maxBytes) return;
    const old = this.bytes.get(image.sha256);
    if (old) {
      this.bytes.delete(image.sha256);
      this.size -= old.data.byteLength;
    }
    this.bytes.set(image.sha256, image);
    this.size += image.data.byteLength;
    for (const [sha, entry] of this.bytes) {
      if (this.size <= this.maxBytes) break;
      this.bytes.delete(sha);
      this.size -= entry.data.byteLength;
    }
  }
}
