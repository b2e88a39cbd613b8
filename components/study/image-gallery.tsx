"use client";

import { useState } from "react";
import { imageUrl } from "./image-preload";
import { captionOf, ImageViewerDialog } from "./image-viewer";
import type { PublicImage } from "./types";

/**
 * The item's images in order, captions always visible; each opens the full-window viewer (previous/next, zoom,
 * compare side by side). `layout="strip"` is the narrow column beside the 3D view.
 */
export function ImageGallery({ images, onZoom, layout = "grid" }: { images: PublicImage[]; onZoom?: () => void; layout?: "grid" | "strip" }) {
  const [open, setOpen] = useState<number | null>(null);
  const columns = layout === "strip" ? "grid-cols-2" : images.length <= 4 ? "grid-cols-2" : "grid-cols-2 md:grid-cols-3 xl:grid-cols-4";
  // One element: beside the 3D view the gallery is a single grid cell.
  return (
    <div>
      <p className="mb-2 text-sm text-slate-700">Click an image to open it large (zoom, previous/next, compare side by side).</p>
      <ol className={`grid gap-3 ${columns}`} aria-label="Images">
        {images.map((img, i) => (
          <li key={img.id}>
            <button
              type="button"
              className="group block w-full overflow-hidden rounded border border-slate-300 bg-black focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              onClick={() => {
                setOpen(i);
                onZoom?.();
              }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable */}
              <img src={imageUrl(img.id)} alt={captionOf(images, i)} className="aspect-square w-full object-contain" />
              <span className="block bg-white px-2 py-1 text-left text-sm text-slate-800 group-hover:underline">
                {captionOf(images, i)} <span className="text-slate-600">(enlarge)</span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <ImageViewerDialog images={images} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
    </div>
  );
}
