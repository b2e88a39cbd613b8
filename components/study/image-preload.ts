import { PARTICIPANT_API } from "@/lib/participant/api-contract";

/**
 * A participant image's address: the signed one the server gave (untimed studies; immutable, so a preloaded copy is
 * reused), else by opaque id (timed studies, checked against the question's "shown" stamp on every request).
 */
export function imageUrl(image: { id: string; url?: string }): string {
  return image.url ?? PARTICIPANT_API.image.path(image.id);
}

const loaded = new Map<string, Promise<void>>();

/** Fetches and decodes one image once per page; never rejects (a failed image shows its own error when displayed). */
function preloadOne(url: string): Promise<void> {
  let pending = loaded.get(url);
  if (!pending) {
    const img = new Image();
    img.decoding = "async";
    img.src = url;
    pending = img.decode().catch(() => undefined);
    loaded.set(url, pending);
  }
  return pending;
}

/**
 * Loads the given image addresses into the browser's cache and decodes them. Resolves when all are ready or after
 * `timeoutMs`, whichever comes first, so a slow image never holds the participant back for long.
 */
export function preloadImages(urls: readonly string[], timeoutMs = 4000): Promise<void> {
  if (typeof window === "undefined" || urls.length === 0) return Promise.resolve();
  return Promise.race([
    Promise.all(urls.map(preloadOne)).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, timeoutMs)),
  ]);
}
