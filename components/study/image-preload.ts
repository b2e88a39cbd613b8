import { PARTICIPANT_API } from "@/lib/participant/api-contract";

/** Participant images by opaque id (served with a private cache lifetime, so a preloaded copy is reused). */
export function imageUrl(id: string): string {
  return PARTICIPANT_API.image.path(id);
}

const loaded = new Map<string, Promise<void>>();

/** Fetches and decodes one image once per page; never rejects (a failed image shows its own error when displayed). */
function preloadOne(id: string): Promise<void> {
  let pending = loaded.get(id);
  if (!pending) {
    const img = new Image();
    img.decoding = "async";
    img.src = imageUrl(id);
    pending = img.decode().catch(() => undefined);
    loaded.set(id, pending);
  }
  return pending;
}

/**
 * Loads the given images into the browser's cache and decodes them. Resolves when all are ready or after
 * `timeoutMs`, whichever comes first, so a slow image never holds the participant back for long.
 */
export function preloadImages(ids: readonly string[], timeoutMs = 4000): Promise<void> {
  if (typeof window === "undefined" || ids.length === 0) return Promise.resolve();
  return Promise.race([Promise.all(ids.map(preloadOne)).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}
