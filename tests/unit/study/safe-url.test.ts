import { describe, expect, it } from "vitest";
import { isSafeHttpUrl, toSafeHttpUrl } from "@/lib/safe-url";
import { StudyConfigSchema } from "@/lib/study-config";

const HOSTILE = [
  "javascript:fetch('/api/admin/users',{method:'POST'})",
  "JAVASCRIPT:alert(1)",
  "  javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "//evil.example/x",
  "/relative",
  "not a url",
];

describe("completion and return URLs", () => {
  it("only absolute http(s) URLs pass", () => {
    for (const url of HOSTILE) expect(isSafeHttpUrl(url), url).toBe(false);
    expect(isSafeHttpUrl("https://app.prolific.com/submissions/complete?cc=C0DE")).toBe(true);
    expect(isSafeHttpUrl("http://localhost:3000/done")).toBe(true);
    expect(toSafeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(toSafeHttpUrl(null)).toBeNull();
  });

  it("the study configuration refuses them on save, with the field path", () => {
    for (const field of ["completionUrl", "returnUrl"] as const) {
      for (const url of HOSTILE) {
        const r = StudyConfigSchema.safeParse({ prolific: { [field]: url } });
        expect(r.success, `${field} = ${url}`).toBe(false);
        expect(r.error?.issues[0]?.path).toEqual(["prolific", field]);
      }
    }
    expect(
      StudyConfigSchema.parse({ prolific: { completionUrl: "https://example.org/done" } }).prolific.completionUrl,
    ).toBe("https://example.org/done");
  });
});
