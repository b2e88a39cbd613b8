import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatUtc, formatUtcTimeOfDay } from "@/lib/format-time";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(tsx?|mts)$/.test(name) ? [full] : [];
  });
}

describe("one time zone for staff: UTC, labelled", () => {
  it("formats an instant the same whatever the process's zone", () => {
    const at = new Date(Date.UTC(2026, 11, 1, 23, 59, 9));
    expect(formatUtc(at)).toBe("2026-12-01 23:59 UTC");
    expect(formatUtc(at, "second")).toBe("2026-12-01 23:59:09 UTC");
    expect(formatUtc(at, "date")).toBe("2026-12-01");
    expect(formatUtc("2026-12-01T23:59:09.000Z", "second")).toBe("2026-12-01 23:59:09 UTC");
    // An offset input is the same instant: 00:30 in UTC+1 is 23:30 UTC the day before.
    expect(formatUtc("2026-12-02T00:30:00+01:00")).toBe("2026-12-01 23:30 UTC");
    expect(formatUtcTimeOfDay(at)).toBe("23:59:09 UTC");
    expect(formatUtc("not a date")).toBe("–");
  });

  it("no staff page or component prints a time in the viewer's or server's local zone", () => {
    const offenders: string[] = [];
    for (const file of [...sources(path.join(ROOT, "app/admin")), ...sources(path.join(ROOT, "components"))]) {
      const text = readFileSync(file, "utf8");
      // Local-zone formatting, or an ISO string cut up for display instead of the one formatter.
      const patterns = [
        /\.toLocale(Date|Time)String\(/,
        /new Date\([^)]*\)\.toLocaleString\(/,
        /\.(at|createdAt|startedAt|finishedAt|openedAt|closedAt|importedAt|lastResponseAt)\.toISOString\(\)\.(slice|replace)\(/,
      ];
      for (const p of patterns) if (p.test(text)) offenders.push(`${path.relative(ROOT, file)}: ${p}`);
    }
    expect(offenders).toEqual([]);
  });
});
