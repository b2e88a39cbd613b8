"use client";

import { useEffect, useRef, useState } from "react";
import { imageUrl } from "./image-preload";
import { captionOf, ImageViewerDialog } from "./image-viewer";
import type { PublicImage } from "./types";

/**
 * The item's images in order, captions always visible; each opens the full-window viewer (previous/next, zoom,
 * compare side by side). `layout="strip"` is the narrow column beside the 3D view. `pending`: the images may not be
 * requested yet (a timed study's question before the server stamped it shown); placeholders keep the layout.
 */
export function ImageGallery({
  images,
  onZoom,
  layout = "grid",
  pending = false,
}: {
  images: PublicImage[];
  onZoom?: () => void;
  layout?: "grid" | "strip";
  pending?: boolean;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const columns =
    layout === "strip"
      ? "grid-cols-2"
      : images.length <= 4
        ? "grid-cols-2"
        : "grid-cols-2 md:grid-cols-3 xl:grid-cols-4";
  // One element: beside the 3D view the gallery is a single grid cell.
  return (
    <div>
      <p className="mb-2 text-sm text-slate-700">
        Click an image to open it large (zoom, previous/next, compare side by side).
      </p>
      <ol className={`grid gap-3 ${columns}`} aria-label="Images">
        {images.map((img, i) => (
          <li key={img.id}>
            {pending ? (
              <div className="overflow-hidden rounded border border-slate-300">
                <div className="flex aspect-square w-full items-center justify-center bg-slate-100 text-sm text-slate-700">
                  Loading…
                </div>
                <span className="block bg-white px-2 py-1 text-left text-sm text-slate-800">
                  {captionOf(images, i)}
                </span>
              </div>
            ) : (
              <button
                type="button"
                className="group block w-full overflow-hidden rounded border border-slate-300 bg-black focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                onClick={() => {
                  setOpen(i);
                  onZoom?.();
                }}
              >
                <GalleryImage image={img} alt={captionOf(images, i)} />
                <span className="block bg-white px-2 py-1 text-left text-sm text-slate-800 group-hover:underline">
                  {captionOf(images, i)} <span className="text-slate-600">(enlarge)</span>
                </span>
              </button>
            )}
          </li>
        ))}
      </ol>
      <ImageViewerDialog
        images={images}
        index={pending ? null : open}
        onIndex={setOpen}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}

/** One thumbnail with a "Loading…" note over it until it has loaded (or failed). */
function GalleryImage({ image, alt }: { image: PublicImage; alt: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [loaded, setLoaded] = useState(false);
  // An image from the cache can finish before React attaches onLoad.
  useEffect(() => {
    if (ref.current?.complete) setLoaded(true);
  }, [image.id]);
  return (
    <span className="relative block">
      {/* eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable */}
      <img
        ref={ref}
        src={imageUrl(image)}
        alt={alt}
        className="aspect-square w-full object-contain"
        onLoad={() => setLoaded(true)}
        onError={() => setLoaded(true)}
      />
      {loaded ? null : (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-sm text-white">
          Loading…
        </span>
      )}
    </span>
  );
}
