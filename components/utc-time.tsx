import { formatUtc, type TimePrecision } from "@/lib/format-time";

/** A time as staff see it everywhere: UTC, labelled (lib/format-time). */
export function UtcTime({ value, precision = "minute" }: { value: Date | string; precision?: TimePrecision }) {
  const iso = (value instanceof Date ? value : new Date(value)).toISOString();
  return <time dateTime={iso}>{formatUtc(value, precision)}</time>;
}
