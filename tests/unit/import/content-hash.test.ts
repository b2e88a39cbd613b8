import { describe, expect, it } from "vitest";
import { computeItemContentHash, sha256Hex, toCanonicalJson } from "@/lib/import/content-hash";

describe("canonical JSON", () => {
  it("sorts keys at every level and drops undefined members", () => {
    expect(toCanonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(toCanonicalJson({ a: 1, b: 2 })).toBe(toCanonicalJson({ b: 2, a: 1 }));
  });

  it("refuses values JSON cannot hold instead of writing null", () => {
    expect(() => toCanonicalJson({ x: Number.NaN })).toThrow(/not a finite number/);
    expect(() => toCanonicalJson({ x: () => 1 })).toThrow(/cannot encode a function/);
  });
});

describe("item content hash", () => {
  // FIPS 180-2 test vector for "abc".
  it("uses SHA-256", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  const base = {
    taskId: "translation",
    taskVersion: 1,
    question: "Which translation?",
    payload: { pdbId: "1acj" },
    gold: { axis: "x", distanceA: 3 },
    images: [
      { sha256: "a".repeat(64), caption: "Image 1" },
      { sha256: "b".repeat(64), caption: "Image 2" },
    ],
  };

  it("is the same for the same content written in another key order", () => {
    expect(computeItemContentHash({ ...base, gold: { distanceA: 3, axis: "x" } })).toBe(computeItemContentHash(base));
  });

  it("changes with the gold, an image, the image order, a caption or the task version", () => {
    const h = computeItemContentHash(base);
    expect(computeItemContentHash({ ...base, gold: { axis: "x", distanceA: 4 } })).not.toBe(h);
    expect(
      computeItemContentHash({ ...base, images: [base.images[0]!, { sha256: "c".repeat(64), caption: "Image 2" }] }),
    ).not.toBe(h);
    expect(computeItemContentHash({ ...base, images: [base.images[1]!, base.images[0]!] })).not.toBe(h);
    expect(
      computeItemContentHash({ ...base, images: [base.images[0]!, { ...base.images[1]!, caption: "Image 3" }] }),
    ).not.toBe(h);
    expect(computeItemContentHash({ ...base, taskVersion: 2 })).not.toBe(h);
  });
});
