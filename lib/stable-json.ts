/**
 * JSON with object keys sorted at every level, so the same data always gives the same bytes
 * (bundles must be byte-identical for the same arguments). `undefined` members are dropped, as
 * JSON.stringify drops them; non-finite numbers are refused (JSON would silently write null).
 */
export function toStableJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new Error(`stable JSON: ${value} is not a finite number`);
      return JSON.stringify(value === 0 ? 0 : value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : toStableJson(v))).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toStableJson(v)}`).join(",")}}`;
    }
    default:
      throw new Error(`stable JSON: cannot encode a ${typeof value}`);
  }
}
