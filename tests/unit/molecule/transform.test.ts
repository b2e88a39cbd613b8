import { describe, expect, it } from "vitest";
import {
  applyMat3,
  applyTransform,
  composeTransforms,
  rotationAboutAxis,
  rotationAboutPoint,
  translationTransform,
} from "@/lib/molecule/geometry/transform";
import { angleAtDeg, boundingSphereOf, type Vec3 } from "@/lib/molecule/geometry/vec3";

function expectVec(actual: Vec3, expected: Vec3, digits = 6) {
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, digits));
}

describe("rotations (right-hand rule)", () => {
  it("rotating (1,0,0) by 90° about z gives (0,1,0)", () => {
    expectVec(applyMat3(rotationAboutAxis("z", 90), [1, 0, 0]), [0, 1, 0]);
  });
  it("rotating (0,1,0) by 90° about x gives (0,0,1), and (0,0,1) about y gives (1,0,0)", () => {
    expectVec(applyMat3(rotationAboutAxis("x", 90), [0, 1, 0]), [0, 0, 1]);
    expectVec(applyMat3(rotationAboutAxis("y", 90), [0, 0, 1]), [1, 0, 0]);
  });
});

describe("rigid transforms", () => {
  it("compose applies the inner transform first", () => {
    const rotate = { rotation: rotationAboutAxis("z", 90), translation: [0, 0, 0] as Vec3 };
    const shift = translationTransform([1, 0, 0]);
    // shift then rotate: (1,0,0) → (2,0,0) → (0,2,0)
    expectVec(applyTransform(composeTransforms(rotate, shift), [1, 0, 0]), [0, 2, 0]);
    // rotate then shift: (1,0,0) → (0,1,0) → (1,1,0)
    expectVec(applyTransform(composeTransforms(shift, rotate), [1, 0, 0]), [1, 1, 0]);
  });
  it("rotation about a point keeps the point fixed", () => {
    const t = rotationAboutPoint(rotationAboutAxis("z", 90), [1, 1, 0]);
    expectVec(applyTransform(t, [1, 1, 0]), [1, 1, 0]);
    expectVec(applyTransform(t, [2, 1, 0]), [1, 2, 0]);
  });
});

describe("vector helpers", () => {
  it("angle at a vertex: right angle", () => {
    expect(angleAtDeg([1, 0, 0], [0, 0, 0], [0, 3, 0])).toBeCloseTo(90, 10);
  });
  it("bounding sphere of a 2×4×6 box is centred in the box with radius half its diagonal", () => {
    const s = boundingSphereOf([
      [0, 0, 0],
      [2, 4, 6],
      [2, 0, 0],
    ]);
    expect(s?.centre).toEqual([1, 2, 3]);
    expect(s?.radiusA).toBeCloseTo(Math.sqrt(1 + 4 + 9), 12);
  });
});
