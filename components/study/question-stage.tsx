"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { imageUrl } from "./image-preload";
import { captionOf, defaultReferenceIndex, ImageViewerDialog } from "./image-viewer";
import type { PublicImage } from "./types";

/** The two-column question layout starts here (Tailwind's lg); below it the page is one column. */
const WIDE_QUERY = "(min-width: 1024px)";
/**
 * A first guess of the height the 3D view takes beyond its square canvas (its hint line and Labels/Centre/Reset row,
 * components/molecule/molecule-viewer.tsx), used until the view is measured (useViewerExtra). Not a constant that can
 * be right: the hint line and the buttons wrap as the view narrows (at 1366×768 the old one-row controls took 66 px at
 * 590 px wide and 86 px at 562 px: keeping 44 px cut them 14 px below the window, keeping 72 px still 6 px).
 */
const VIEWER_CONTROLS_GUESS_PX = 66;
/** A horizontal swipe longer than this (CSS px) moves to the previous/next image. */
const SWIPE_PX = 40;
const INLINE_ZOOM = 2;

function useWide(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mq = window.matchMedia(WIDE_QUERY);
      mq.addEventListener("change", notify);
      return () => mq.removeEventListener("change", notify);
    },
    () => window.matchMedia(WIDE_QUERY).matches,
    () => true,
  );
}

/** The content box's size, kept current with a ResizeObserver. */
function useBoxSize<T extends HTMLElement>(): [React.RefObject<T | null>, { w: number; h: number }] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setSize({ w: Math.floor(el.clientWidth), h: Math.floor(el.clientHeight) });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

/**
 * How much taller than wide the 3D view in the returned ref's element is (its canvas is square: the rest is its control
 * rows and borders), measured whenever that element's size changes. The stage sizes the view to `box height − this`,
 * so the whole view, controls included, fits the box. Narrowing the view can only wrap its controls onto more lines,
 * so the measure → width → measure loop settles (each step makes the view narrower or leaves it) instead of swinging.
 */
function useViewerExtra<T extends HTMLElement>(active: boolean): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [extra, setExtra] = useState(VIEWER_CONTROLS_GUESS_PX);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !active) return;
    const measure = () => {
      const viewer = el.firstElementChild as HTMLElement | null;
      // Hidden (an image on the stage) or still loading (a line of text, wider than tall): keep the last measure.
      if (!viewer || viewer.offsetWidth === 0 || viewer.offsetHeight <= viewer.offsetWidth) return;
      setExtra(Math.ceil(viewer.getBoundingClientRect().height - viewer.getBoundingClientRect().width));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [active]);
  return [ref, extra];
}

type Slot = number | "3d";

/**
 * The question's images as the participant first meets them: one large current image (or the 3D view) with a filmstrip
 * of the others, ← → keys and swipes between them, side by side with the image the task compares it with, an inline
 * 2× zoom (drag or scroll to pan) and the full-window viewer. Wide screens: filmstrip left, the image as large as the
 * space beside the answer column allows (square: the smaller side). Narrow screens: the image full width, the
 * filmstrip under it, side by side becomes one above the other.
 */
export function QuestionStage({
  images,
  pending = false,
  viewer3d = null,
  onZoom,
  onEvent,
}: {
  images: PublicImage[];
  /** The images may not be requested yet (a timed question before the server stamped it shown). */
  pending?: boolean;
  /** The interactive 3D view: shown first, kept mounted while images are on the stage (its camera stays). */
  viewer3d?: React.ReactNode;
  onZoom?: () => void;
  onEvent?: (type: string, detail: string) => void;
}) {
  const wide = useWide();
  const has3d = viewer3d !== null;
  const slots = useMemo<Slot[]>(
    () => [...(has3d ? (["3d"] as const) : []), ...images.map((_, i) => i)],
    [has3d, images],
  );
  const [current, setCurrent] = useState<Slot>(has3d ? "3d" : 0);
  const [compare, setCompare] = useState(false);
  const [partner, setPartner] = useState(() => defaultReferenceIndex(images));
  const [zoom, setZoom] = useState(1);
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const [boxRef, box] = useBoxSize<HTMLDivElement>();
  const [viewerRef, viewerExtra] = useViewerExtra<HTMLDivElement>(has3d);
  const filmstrip = useRef<HTMLDivElement>(null);

  const select = useCallback(
    (slot: Slot, focusThumb = false) => {
      setCurrent(slot);
      setZoom(1);
      onEvent?.("stage", slot === "3d" ? "3d" : String(slot + 1));
      if (focusThumb) filmstrip.current?.querySelector<HTMLElement>(`[data-slot="${slot}"]`)?.focus();
    },
    [onEvent],
  );
  const step = useCallback(
    (delta: number, focusThumb = false) => {
      const at = slots.indexOf(current);
      select(slots[(at + delta + slots.length) % slots.length]!, focusThumb);
    },
    [slots, current, select],
  );

  // The image compared with the current one: the task's reference ("after" image), or the first image when the
  // reference itself is on the stage.
  const shownPartner =
    typeof current === "number" && partner === current ? (current === 0 ? Math.min(1, images.length - 1) : 0) : partner;
  const panes: Slot[] = compare ? [current, shownPartner] : [current];
  const gap = 8;
  const side = !box.w
    ? 0
    : wide
      ? compare
        ? Math.min(Math.floor((box.w - gap) / 2), box.h)
        : Math.min(box.w, box.h)
      : box.w;

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target as HTMLElement).tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "CANVAS") return;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") step(1, true);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") step(-1, true);
    else return;
    e.preventDefault();
  };

  const caption = current === "3d" ? "Interactive 3D view" : captionOf(images, current);
  const position = slots.indexOf(current) + 1;
  const manyImages = slots.length > 7;

  return (
    <div
      data-testid="stage"
      onKeyDown={onKeyDown}
      className="flex min-w-0 flex-col gap-2 lg:absolute lg:inset-0 lg:flex-row"
    >
      <div
        ref={filmstrip}
        className={`order-2 flex shrink-0 gap-2 overflow-x-auto pb-1 lg:order-1 lg:flex-col lg:overflow-x-visible lg:overflow-y-auto lg:pb-0 lg:pr-1 ${manyImages ? "lg:w-[140px]" : "lg:w-[92px]"}`}
      >
        {has3d ? (
          <button
            type="button"
            data-slot="3d"
            aria-pressed={current === "3d"}
            onClick={() => select("3d")}
            className={`flex h-16 w-16 shrink-0 items-center justify-center rounded border-2 bg-slate-900 text-center text-xs font-semibold text-white lg:h-14 lg:w-full ${focusRing} ${current === "3d" ? "border-blue-600" : "border-slate-300"}`}
          >
            3D view
          </button>
        ) : null}
        <ol aria-label="Images" className={`flex gap-2 lg:grid ${manyImages ? "lg:grid-cols-2" : "lg:grid-cols-1"}`}>
          {images.map((img, i) => (
            <li key={img.id} className="shrink-0">
              {pending ? (
                <div className="flex h-16 w-16 items-center justify-center rounded border border-slate-300 bg-slate-100 text-xs text-slate-700 lg:h-auto lg:w-full lg:aspect-square">
                  {i + 1}
                </div>
              ) : (
                <button
                  type="button"
                  data-slot={i}
                  aria-pressed={current === i}
                  aria-label={captionOf(images, i)}
                  title={captionOf(images, i)}
                  onClick={() => select(i)}
                  className={`relative block h-16 w-16 overflow-hidden rounded border-2 bg-black lg:h-auto lg:w-full ${focusRing} ${current === i ? "border-blue-600" : compare && shownPartner === i ? "border-amber-500" : "border-slate-300"}`}
                >
                  {/* eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable */}
                  <img src={imageUrl(img)} alt="" className="aspect-square w-full object-contain" />
                  <span
                    aria-hidden
                    className="absolute left-0 top-0 rounded-br bg-white/90 px-1 text-xs font-semibold text-slate-900"
                  >
                    {i + 1}
                  </span>
                </button>
              )}
            </li>
          ))}
        </ol>
      </div>
      <div className="order-1 flex min-h-0 min-w-0 flex-1 flex-col gap-1 lg:order-2">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span className="mr-auto font-semibold" data-testid="stage-caption" aria-live="polite">
            {caption}{" "}
            <span className="font-normal text-slate-600">
              ({position} of {slots.length})
            </span>
          </span>
          <button
            type="button"
            className={toolButton}
            onClick={() => step(-1)}
            aria-label="Previous image"
            aria-keyshortcuts="ArrowLeft"
          >
            ←
          </button>
          <button
            type="button"
            className={toolButton}
            onClick={() => step(1)}
            aria-label="Next image"
            aria-keyshortcuts="ArrowRight"
          >
            →
          </button>
          {images.length > 1 ? (
            <button
              type="button"
              className={toolButton}
              aria-pressed={compare}
              onClick={() => {
                setCompare(!compare);
                onEvent?.("compare", compare ? "off" : "on");
              }}
            >
              Side by side
            </button>
          ) : null}
          {current !== "3d" && !pending ? (
            <>
              <button
                type="button"
                className={toolButton}
                aria-pressed={zoom > 1}
                onClick={() => {
                  setZoom(zoom > 1 ? 1 : INLINE_ZOOM);
                  onZoom?.();
                }}
              >
                {zoom > 1 ? "Fit" : "Zoom 2×"}
              </button>
              <button
                type="button"
                className={toolButton}
                onClick={() => {
                  setViewerIndex(current);
                  onZoom?.();
                }}
              >
                Enlarge
              </button>
            </>
          ) : null}
        </div>
        {compare ? (
          <label className="flex items-center gap-2 text-sm">
            Side by side with
            <select
              value={shownPartner}
              onChange={(e) => setPartner(Number(e.target.value))}
              className={`rounded border border-slate-400 bg-white px-1 py-0.5 ${focusRing}`}
            >
              {images.map((img, i) => (
                <option key={img.id} value={i}>
                  {captionOf(images, i)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div
          ref={boxRef}
          className={`relative min-h-0 min-w-0 lg:flex-1 ${compare && !wide ? "flex flex-col gap-2" : "flex gap-2"} lg:overflow-hidden`}
        >
          {has3d ? (
            // Mounted once and kept: hiding it (not unmounting) keeps the camera and its recorded path.
            // Wide screens: the whole view inside the box (the page does not scroll), so the canvas gives up what its
            // controls take, as measured. Narrow screens: the full width; the page scrolls. self-start: the wrapper
            // has the view's own height, not the box's (a stretched wrapper never resized, so it was never measured).
            <div
              ref={viewerRef}
              className={panes.includes("3d") ? "shrink-0 self-start" : "hidden"}
              style={{ width: Math.max(0, wide ? Math.min(side, box.h - viewerExtra) : side) || undefined }}
            >
              {viewer3d}
            </div>
          ) : null}
          {panes.map((slot, k) =>
            slot === "3d" ? null : (
              <StagePane
                key={`${k}-${slot}`}
                images={images}
                index={slot}
                side={side}
                zoom={k === 0 ? zoom : 1}
                pending={pending}
                main={k === 0}
                label={k === 0 ? undefined : "Compared image"}
                onSwipe={(d) => step(d)}
              />
            ),
          )}
        </div>
      </div>
      <ImageViewerDialog
        images={images}
        index={pending ? null : viewerIndex}
        onIndex={setViewerIndex}
        onClose={() => setViewerIndex(null)}
      />
    </div>
  );
}

const focusRing = "focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
const toolButton = `rounded border border-slate-400 bg-white px-2 py-0.5 text-sm hover:bg-slate-100 aria-pressed:border-blue-700 aria-pressed:bg-blue-50 ${focusRing}`;

/** One image on the stage at `side` CSS px (× zoom, panned by dragging or scrolling), swiped for the next one. */
function StagePane({
  images,
  index,
  side,
  zoom,
  pending,
  main,
  label,
  onSwipe,
}: {
  images: readonly PublicImage[];
  index: number;
  side: number;
  zoom: number;
  pending: boolean;
  main: boolean;
  label?: string;
  onSwipe: (delta: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const gesture = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Zooming in starts at the centre.
    el.scrollLeft = (el.scrollWidth - el.clientWidth) / 2;
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
  }, [zoom, index]);
  const img = images[index];
  if (!img || side <= 0) return <div className="aspect-square w-full" />;
  const caption = captionOf(images, index);
  return (
    <figure className="relative shrink-0" style={{ width: side }} aria-label={label ?? caption}>
      {label ? (
        <figcaption className="absolute left-0 top-0 z-10 rounded-br bg-white/90 px-1.5 text-xs font-semibold text-slate-900">
          {caption}
        </figcaption>
      ) : null}
      <div
        ref={scroller}
        tabIndex={zoom > 1 ? 0 : undefined}
        role={zoom > 1 ? "region" : undefined}
        aria-label={zoom > 1 ? `${caption}, zoomed; scroll or drag to pan` : undefined}
        className={`overflow-auto rounded bg-black ${zoom > 1 ? "cursor-grab touch-auto active:cursor-grabbing" : "touch-pan-y"} ${focusRing}`}
        style={{ width: side, height: side }}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          const el = e.currentTarget;
          gesture.current = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
          if (zoom > 1 && e.pointerType === "mouse") el.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          const g = gesture.current;
          if (!g || zoom <= 1 || e.pointerType !== "mouse") return;
          e.currentTarget.scrollLeft = g.left - (e.clientX - g.x);
          e.currentTarget.scrollTop = g.top - (e.clientY - g.y);
        }}
        onPointerUp={(e) => {
          const g = gesture.current;
          gesture.current = null;
          if (!g || zoom > 1) return;
          const dx = e.clientX - g.x;
          const dy = e.clientY - g.y;
          if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 1.5 * Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1);
        }}
        onPointerCancel={() => (gesture.current = null)}
      >
        {pending ? (
          <div className="flex h-full w-full items-center justify-center bg-slate-100 text-sm text-slate-700">
            Loading…
          </div>
        ) : (
          // eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable
          <img
            src={imageUrl(img)}
            alt={caption}
            draggable={false}
            data-testid={main ? "main-image" : "compared-image"}
            style={{ width: side * zoom, height: side * zoom }}
            className="block max-w-none select-none object-contain"
          />
        )}
      </div>
    </figure>
  );
}
