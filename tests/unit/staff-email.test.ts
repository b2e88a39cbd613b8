import { describe, expect, it } from "vitest";
import { isStaffEmail, StaffEmailSchema } from "@/lib/staff-email";

describe("staff email rule", () => {
  it("accepts the default first admin and addresses without a top-level domain", () => {
    for (const ok of [
      "admin@localhost",
      "ana@lab-server",
      "a.b+tag@example.org",
      "x@sub.example.co.uk",
      "o'neil@host",
    ]) {
      expect(isStaffEmail(ok), ok).toBe(true);
    }
  });

  it("rejects what is not a mailbox at a host", () => {
    for (const bad of [
      "",
      "admin",
      "@localhost",
      "admin@",
      "a@@b",
      "a b@host",
      "a@ho st",
      "a@-host",
      "a@host-",
      "a@.host",
      "a..b@host",
      ".a@host",
      "a@host..org",
      `${"a".repeat(65)}@host`,
      `a@${"b".repeat(64)}`,
    ]) {
      expect(isStaffEmail(bad), bad).toBe(false);
    }
  });

  it("normalises case and surrounding spaces before checking", () => {
    expect(StaffEmailSchema.parse("  Admin@LocalHost ")).toBe("admin@localhost");
    expect(StaffEmailSchema.safeParse("not an email").success).toBe(false);
  });
});
