import { describe, expect, it } from "vitest";
import {
  CANONICAL_VIEW_NAMES,
  applyCommands,
  canonicalViewTransform,
  toScreenFrame,
} from "@/lib/molecule/geometry/commands";
import { applyTransform } from "@/lib/molecule/geometry/transform";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";

function expectVec(actual: Vec3 | undefined, expected: Vec3) {
  expect(actual).toBeDefined();
  actual!.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 9));
}

describe("move / roll in screen coordinates", () => {
  it("move x 4 shifts the model 4 Å to the right; move z 40 brings it 40 Å closer", () => {
    const [p] = applyCommands([[1, 2, 3]], [{ kind: "move", axis: "x", value: 4 }], [0, 0, 0]);
    expectVec(p, [5, 2, 3]);
    const [q] = applyCommands([[1, 2, 3]], [{ kind: "move", axis: "z", value: 40 }], [0, 0, 0]);
    expectVec(q, [1, 2, 43]);
  });
  it("roll z 90 turns counter-clockwise as seen by the viewer: right (+x) goes up (+y)", () => {
    const [p] = applyCommands([[1, 0, 0]], [{ kind: "roll", axis: "z", value: 90 }], [0, 0, 0]);
    expectVec(p, [0, 1, 0]);
  });
  it("roll rotates about the given centre (docking: the ligand centroid)", () => {
    const [p] = applyCommands([[11, 0, 0]], [{ kind: "roll", axis: "z", value: 90 }], [10, 0, 0]);
    expectVec(p, [10, 1, 0]);
  });
  it("the rotation centre moves with the model: move x 5 then roll z 90 turns about the moved centre", () => {
    const [p] = applyCommands(
      [[1, 0, 0]],
      [
        { kind: "move", axis: "x", value: 5 },
        { kind: "roll", axis: "z", value: 90 },
      ],
      [0, 0, 0],
    );
    // moved to (6,0,0); centre now (5,0,0); 90° about it → (5,1,0)
    expectVec(p, [5, 1, 0]);
  });
  it("order matters for two rolls (T6)", () => {
    const xThenY = applyCommands(
      [[0, 1, 0]],
      [
        { kind: "roll", axis: "x", value: 90 },
        { kind: "roll", axis: "y", value: 90 },
      ],
      [0, 0, 0],
    );
    const yThenX = applyCommands(
      [[0, 1, 0]],
      [
        { kind: "roll", axis: "y", value: 90 },
        { kind: "roll", axis: "x", value: 90 },
      ],
      [0, 0, 0],
    );
    // x 90: (0,1,0)→(0,0,1); then y 90: (0,0,1)→(1,0,0)
    expectVec(xThenY[0], [1, 0, 0]);
    // y 90 leaves (0,1,0); then x 90 → (0,0,1)
    expectVec(yThenX[0], [0, 0, 1]);
  });
});

describe("canonical views", () => {
  const towardViewer = (view: (typeof CANONICAL_VIEW_NAMES)[number], p: Vec3) =>
    applyTransform(canonicalViewTransform(view), p)[2];

  it("are in the order front, left, top, back, right, bottom", () => {
    expect(CANONICAL_VIEW_NAMES).toEqual(["front", "left", "top", "back", "right", "bottom"]);
  });
  it("left view shows the model's −X side; right shows +X", () => {
    expect(towardViewer("left", [-1, 0, 0])).toBeCloseTo(1, 9);
    expect(towardViewer("right", [1, 0, 0])).toBeCloseTo(1, 9);
  });
  it("top view shows the model's +Y side; bottom shows −Y; back shows −Z", () => {
    expect(towardViewer("top", [0, 1, 0])).toBeCloseTo(1, 9);
    expect(towardViewer("bottom", [0, -1, 0])).toBeCloseTo(1, 9);
    expect(towardViewer("back", [0, 0, -1])).toBeCloseTo(1, 9);
    expect(towardViewer("front", [0, 0, 1])).toBeCloseTo(1, 9);
  });
  it("screen frame = file coordinates minus the view centre", () => {
    expect(toScreenFrame([[5, 6, 7]], [1, 2, 3])).toEqual([[4, 4, 4]]);
  });
});
