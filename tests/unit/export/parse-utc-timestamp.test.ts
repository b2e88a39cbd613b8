import { describe, expect, it } from "vitest";
import { parseUtcTimestamp } from "@/lib/server/export/parse-utc-timestamp";

describe("parseUtcTimestamp", () => {
  it("reads PostgreSQL's timestamp text as UTC, whatever the process time zone", () => {
    // 2025-06-01 00:00:05 UTC = 1748736005 s since the epoch (checked with `date -u -d @1748736005`).
    expect(parseUtcTimestamp("2025-06-01 00:00:05").getTime()).toBe(1_748_736_005_000);
    expect(parseUtcTimestamp("2025-06-01 00:00:05.123").toISOString()).toBe("2025-06-01T00:00:05.123Z");
  });

  it("pads short fractions and truncates past milliseconds", () => {
    // PostgreSQL drops trailing zeros: .12 is 120 ms.
    expect(parseUtcTimestamp("2025-06-01 00:00:05.12").toISOString()).toBe("2025-06-01T00:00:05.120Z");
    expect(parseUtcTimestamp("2025-12-31 23:59:59.999999").toISOString()).toBe("2025-12-31T23:59:59.999Z");
  });

  it("rejects text it does not understand with the value in the message", () => {
    expect(() => parseUtcTimestamp("infinity")).toThrow(/unexpected timestamp 'infinity'/);
    expect(() => parseUtcTimestamp("2025-06-01 00:00:05+02")).toThrow(/unexpected timestamp/);
  });
});
