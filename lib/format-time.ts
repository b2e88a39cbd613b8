/**
 * Every time staff see is printed in UTC with the zone written out: the exports store UTC "YYYY-MM-DD HH:MM:SS.mmm",
 * server-rendered pages do not know the viewer's zone (a local time rendered on the server would be
 * the server's, and re-rendering it in the browser would change it), and two researchers in different
 * zones then read the same figure. One formatter, so the monitor's "updated" and "last answer" agree.
 */
export type TimePrecision = "date" | "minute" | "second";

const LENGTH: Record<TimePrecision, number> = { date: 10, minute: 16, second: 19 };

/** "2026-12-01 13:05 UTC" (minute), "2026-12-01 13:05:09 UTC" (second), "2026-12-01" (date: no zone, a calendar day in UTC). */
export function formatUtc(value: Date | string | number, precision: TimePrecision = "minute"): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "–";
  const text = date.toISOString().slice(0, LENGTH[precision]).replace("T", " ");
  return precision === "date" ? text : `${text} UTC`;
}

/** "13:05:09 UTC": the time of day alone, for a page that shows its date elsewhere (the monitor's refresh stamp). */
export function formatUtcTimeOfDay(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "–";
  return `${date.toISOString().slice(11, 19)} UTC`;
}
