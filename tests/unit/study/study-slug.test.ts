import { describe, expect, it } from "vitest";
import { StudySlugSchema } from "@/lib/pools/study-input";
import { hasInvalidStudySlug, isStudySlug } from "@/lib/study-slug";

describe("the study slug rule (lib/study-slug.ts)", () => {
  it("accepts what the study form accepts, exactly (no trimming or case folding at the link)", () => {
    for (const slug of ["demo", "expert-pilot-2", "e2e-0a1b2c3d", "a".repeat(64)]) {
      expect(isStudySlug(slug), slug).toBe(true);
      expect(StudySlugSchema.parse(slug)).toBe(slug);
    }
    for (const slug of [
      "",
      ".",
      "..",
      "...",
      "ab",
      "-abc",
      "abc-",
      "Demo",
      " demo",
      "a/b",
      "a%2eb",
      "x".repeat(65),
      "dé-mo",
    ])
      expect(isStudySlug(slug), slug).toBe(false);
  });

  it("finds the first segment under /s/ that no study can have, percent-decoded", () => {
    for (const path of [
      "/s/%2e%2e",
      "/s/%2E%2E/session",
      "/s/./session",
      "/s/..",
      "/s/.%2e/status",
      "/s//session",
      "/s/",
      "/s/x%2Fyz",
      "/s/%FF",
    ])
      expect(hasInvalidStudySlug(path), path).toBe(true);
    for (const path of [
      "/s/demo",
      "/s/demo/session",
      "/s/demo/status",
      "/s/%64emo",
      "/api/participant/session",
      "/signin",
      "/s",
      "/sx/..",
      "/",
    ])
      expect(hasInvalidStudySlug(path), path).toBe(false);
  });
});
