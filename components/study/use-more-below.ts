"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Whether a scroll box hides content below what it shows (not yet scrolled to its end), kept current as it scrolls,
 * resizes or its content changes: overlay scrollbars (macOS) give no cue of their own.
 */
export function useMoreBelow<T extends HTMLElement>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [moreBelow, setMoreBelow] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setMoreBelow(el.scrollHeight - el.clientHeight - el.scrollTop > 2);
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    for (const child of el.children) resize.observe(child);
    const mutation = new MutationObserver(() => {
      for (const child of el.children) resize.observe(child);
      measure();
    });
    mutation.observe(el, { childList: true });
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      resize.disconnect();
      mutation.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, []);
  return [ref, moreBelow];
}
