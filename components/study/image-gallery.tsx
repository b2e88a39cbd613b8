"use client";

import { useEffect, useRef, useState } from "react";
import type { PublicImage } from "./types";

/** The item's images in order; each opens full size (the paper's static condition). */
export function ImageGallery({ images, onZoom }: { images: PublicImage[]; onZoom?: () => void }) {
  const [open, setOpen] = useState<PublicImage | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <>
      <ol className={`grid gap-3 ${images.length <= 4 ? "grid-cols-2" : "grid-cols-2 xl:grid-cols-3"}`} aria-label="Images">
        {images.map((img, i) => (
          <li key={img.id}>
            <button
              type="button"
              className="group block w-full overflow-hidden rounded border border-slate-300 bg-black"
              onClick={() => {
                setOpen(img);
                onZoom?.();
              }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable */}
              <img src={`/api/images/${img.id}`} alt={`Image ${i + 1}`} className="aspect-square w-full object-contain" />
              <span className="block bg-white px-2 py-1 text-left text-sm text-slate-800 group-hover:underline">
                {img.caption || `Image ${i + 1}`} <span className="text-slate-500">(enlarge)</span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <dialog ref={dialog} onClose={() => setOpen(null)} className="m-auto max-h-[95vh] max-w-[95vw] bg-black p-0 backdrop:bg-black/70" aria-label={open?.caption ?? "Image"}>
        {open ? (
          <div className="relative">
            {/* eslint-disable-next-line @next/next/no-img-element -- see above */}
            <img src={`/api/images/${open.id}`} alt={open.caption || "Enlarged image"} className="max-h-[92vh] max-w-[92vw] object-contain" />
            <button type="button" autoFocus onClick={() => setOpen(null)} className="absolute right-2 top-2 rounded bg-white px-3 py-1 text-sm font-medium">
              Close (Esc)
            </button>
          </div>
        ) : null}
      </dialog>
    </>
  );
}
