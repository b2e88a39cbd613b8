"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { imageUrl } from "./image-preload";
import type { PublicImage } from "./types";

/** Zoom steps of the viewer (1 = the image fits its pane). */
export const ZOOM_STEPS = [1, 1.5, 2, 3] as const;

/** The image a MC option is compared with by default: the "after" image, else the first image that is not an option. */
export function defaultReferenceIndex(images: readonly PublicImage[]): number {
  const after = images.findIndex((img) => /\bafter\b/i.test(img.caption));
  if (after >= 0) return after;
  const firstNonOption = images.findIndex((img) => !isOptionImage(img));
  return firstNonOption >= 0 ? firstNonOption : 0;
}

export function isOptionImage(img: PublicImage): boolean {
  return /\boption [A-D]\b/i.test(img.caption);
}

export function captionOf(images: readonly PublicImage[], index: number): string {
  return images[index]?.caption || `Image ${index + 1}`;
}

/**
 * One pane of the viewer: the image as large as the pane allows (square images: the pane's smaller side), zoomable,
 * panned by dragging or scrolling, with its caption always visible above it.
 */
function ImagePane({
  images,
  index,
  zoom,
  label,
  children,
}: {
  images: readonly PublicImage[];
  index: number;
  zoom: number;
  label: string;
  children?: React.ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [base, setBase] = useState(0);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setBase(Math.max(64, Math.floor(Math.min(el.clientWidth, el.clientHeight))));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // Zooming keeps the centre of the visible part in place.
  const previousZoom = useRef(zoom);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || previousZoom.current === zoom) return;
    const ratio = zoom / previousZoom.current;
    previousZoom.current = zoom;
    el.scrollLeft = (el.scrollLeft + el.clientWidth / 2) * ratio - el.clientWidth / 2;
    el.scrollTop = (el.scrollTop + el.clientHeight / 2) * ratio - el.clientHeight / 2;
  }, [zoom]);
  const img = images[index];
  const size = Math.round(base * zoom);
  return (
    <figure className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label={label}>
      <figcaption className="flex flex-wrap items-center justify-between gap-2 bg-slate-900 px-3 py-1.5 text-sm text-white">
        <span data-testid="viewer-caption">
          <span className="font-semibold">{captionOf(images, index)}</span>
          <span className="ml-2 text-slate-300">
            ({index + 1} of {images.length})
          </span>
        </span>
        {children}
      </figcaption>
      <div
        ref={scroller}
        // Focusable when zoomed, so the enlarged image can be scrolled with the keyboard too.
        tabIndex={zoom > 1 ? 0 : undefined}
        aria-label={zoom > 1 ? `${captionOf(images, index)}, zoomed; scroll or drag to pan` : undefined}
        role={zoom > 1 ? "region" : undefined}
        className={`relative min-h-0 flex-1 overflow-auto bg-black ${zoom > 1 ? "cursor-grab active:cursor-grabbing" : ""}`}
        onPointerDown={(e) => {
          if (zoom <= 1 || e.button !== 0) return;
          const el = e.currentTarget;
          drag.current = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
          el.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          e.currentTarget.scrollLeft = d.left - (e.clientX - d.x);
          e.currentTarget.scrollTop = d.top - (e.clientY - d.y);
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
      >
        {img && base > 0 ? (
          // eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable
          <img
            src={imageUrl(img)}
            alt={captionOf(images, index)}
            draggable={false}
            data-testid="viewer-image"
            style={{ width: size, height: size }}
            className="m-auto block max-w-none select-none object-contain"
          />
        ) : null}
      </div>
    </figure>
  );
}

const toolButton =
  "rounded border border-slate-500 bg-slate-800 px-3 py-1 text-sm text-white hover:bg-slate-700 disabled:opacity-40";

/**
 * Full-window image viewer: one image as large as the window allows, or a reference image beside another (compare),
 * captions always visible, previous/next (← →), zoom (+ − 0) with drag-to-pan, Esc closes.
 */
export function ImageViewerDialog({
  images,
  index,
  onIndex,
  onClose,
}: {
  images: readonly PublicImage[];
  index: number | null;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [zoom, setZoom] = useState(1);
  const [compare, setCompare] = useState(false);
  const [reference, setReference] = useState(() => defaultReferenceIndex(images));
  const open = index !== null;
  // The panes mount only once the dialog is showing: measured inside a closed (display: none) dialog they got 0 px.
  const [showing, setShowing] = useState(false);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      setShowing(true);
      setZoom(1);
      // MC option images open beside the reference image: the comparison the task asks for.
      setCompare(index !== null && images[index] !== undefined && isOptionImage(images[index]));
    } else if (!open && d.open) d.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only opening/closing resets the view
  }, [open]);

  const step = useCallback(
    (delta: number) => index !== null && onIndex((index + delta + images.length) % images.length),
    [index, images.length, onIndex],
  );
  const zoomBy = useCallback((delta: number) => {
    setZoom((z) => {
      const at = ZOOM_STEPS.indexOf(z as (typeof ZOOM_STEPS)[number]);
      return ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, at + delta))]!;
    });
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") step(1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "+" || e.key === "=") zoomBy(1);
    else if (e.key === "-") zoomBy(-1);
    else if (e.key === "0") setZoom(1);
    // S, not C: A–D and 1–4 stay the MC answer keys (the question's window listener) while the viewer is open.
    else if (e.key === "s" || e.key === "S") setCompare((c) => !c);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <dialog
      ref={dialog}
      onClose={() => {
        setShowing(false);
        onClose();
      }}
      onKeyDown={onKeyDown}
      aria-labelledby="viewer-title"
      className="m-0 h-dvh max-h-none w-dvw max-w-none bg-slate-950 p-0 text-white backdrop:bg-black/80"
    >
      {open && showing ? (
        <div className="flex h-full flex-col">
          <div className="flex flex-wrap items-center gap-2 border-b border-slate-700 px-3 py-2">
            <h2 id="viewer-title" className="mr-auto text-base font-semibold">
              Image viewer
            </h2>
            <button type="button" className={toolButton} onClick={() => step(-1)} aria-keyshortcuts="ArrowLeft">
              ← Previous
            </button>
            <button type="button" className={toolButton} onClick={() => step(1)} aria-keyshortcuts="ArrowRight">
              Next →
            </button>
            <button
              type="button"
              className={toolButton}
              aria-pressed={compare}
              onClick={() => setCompare(!compare)}
              aria-keyshortcuts="S"
            >
              {compare ? "Single image" : "Compare side by side"}
            </button>
            <span className="flex items-center gap-1" role="group" aria-label="Zoom">
              <button
                type="button"
                className={toolButton}
                onClick={() => zoomBy(-1)}
                disabled={zoom === ZOOM_STEPS[0]}
                aria-label="Zoom out"
                aria-keyshortcuts="-"
              >
                −
              </button>
              <span className="w-12 text-center text-sm" aria-live="polite">
                {Math.round(zoom * 100)} %
              </span>
              <button
                type="button"
                className={toolButton}
                onClick={() => zoomBy(1)}
                disabled={zoom === ZOOM_STEPS[ZOOM_STEPS.length - 1]}
                aria-label="Zoom in"
                aria-keyshortcuts="+"
              >
                +
              </button>
            </span>
            <button
              type="button"
              autoFocus
              className="rounded bg-white px-3 py-1 text-sm font-medium text-slate-900"
              onClick={() => dialog.current?.close()}
            >
              Close (Esc)
            </button>
          </div>
          <p className="sr-only">
            Keys: left and right arrows for the previous and next image, plus and minus to zoom, S to compare side by
            side, Escape to close.
          </p>
          <div className="flex min-h-0 flex-1 gap-1">
            {compare ? (
              <ImagePane images={images} index={reference} zoom={zoom} label="Reference image">
                <label className="flex items-center gap-1 text-xs text-slate-300">
                  Compare with
                  <select
                    value={reference}
                    onChange={(e) => setReference(Number(e.target.value))}
                    className="rounded bg-slate-800 px-1 py-0.5 text-xs text-white"
                  >
                    {images.map((img, i) => (
                      <option key={img.id} value={i}>
                        {captionOf(images, i)}
                      </option>
                    ))}
                  </select>
                </label>
              </ImagePane>
            ) : null}
            <ImagePane images={images} index={index} zoom={zoom} label="Current image" />
          </div>
          <p className="border-t border-slate-700 px-3 py-1 text-xs text-slate-300" aria-hidden>
            ← → previous/next · + − zoom (drag to pan) · S side by side · Esc close
          </p>
        </div>
      ) : null}
    </dialog>
  );
}
