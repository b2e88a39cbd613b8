"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { formatUtcTimeOfDay } from "@/lib/format-time";

/** Re-renders the current server page every `intervalMs` while enabled (the live monitor). */
export function AutoRefresh({ intervalMs, renderedAt }: { intervalMs: number; renderedAt: string }) {
  const router = useRouter();
  const [enabled, setEnabled] = useState(true);
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      // A hidden tab does not need fresh numbers; refresh resumes when it is visible again.
      if (document.visibilityState === "visible") router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [enabled, intervalMs, router]);
  return (
    <div className="flex items-center gap-3 text-sm text-slate-600">
      <span>
        Updated <time dateTime={renderedAt}>{formatUtcTimeOfDay(renderedAt)}</time>
      </span>
      <label className="flex items-center gap-1">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Refresh every {Math.round(intervalMs / 1000)} s
      </label>
    </div>
  );
}
