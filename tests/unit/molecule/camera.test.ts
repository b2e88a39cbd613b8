import { describe, expect, it } from "vitest";
import {
  apparentRadiusPx,
  focalLengthPx,
  frameCamera,
  frameCameraOnRadius,
  projectToPixels,
  toCameraSpace,
} from "@/lib/molecule/geometry/camera";

describe("perspective camera (30° horizontal field of view)", () => {
  const camera = frameCameraOnRadius(10, { widthPx: 800, heightPx: 800, paddingFraction: 0 });

  it("frames a 10 Å sphere at distance r / sin(15°) = 38.637 Å", () => {
    expect(camera.distanceA).toBeCloseTo(10 / Math.sin((15 * Math.PI) / 180), 9);
    expect(camera.distanceA).toBeCloseTo(38.637, 3);
  });
  it("focal length is (W/2) / tan(15°) = 1492.9 px for W = 800", () => {
    expect(focalLengthPx(camera)).toBeCloseTo(400 / Math.tan((15 * Math.PI) / 180), 9);
  });
  it("projects the view centre to the image centre, +x right, +y up (pixel y down)", () => {
    const c = projectToPixels(camera, [0, 0, 0]);
    expect([c.xPx, c.yPx]).toEqual([400, 400]);
    expect(c.depthA).toBeCloseTo(camera.distanceA, 12);
    const right = projectToPixels(camera, [1, 0, 0]);
    const up = projectToPixels(camera, [0, 1, 0]);
    expect(right.xPx).toBeGreaterThan(400);
    expect(up.yPx).toBeLessThan(400);
    // x = 400 + f·1/d
    expect(right.xPx - 400).toBeCloseTo(focalLengthPx(camera) / camera.distanceA, 9);
  });
  it("a point on the sphere's tangent at the edge of the view cone projects to the image edge", () => {
    // tangent point of the cone: angle 15° from the axis at distance d·cos(15°)
    const half = (15 * Math.PI) / 180;
    const t = camera.distanceA * Math.cos(half);
    const p = projectToPixels(camera, [t * Math.sin(half), 0, camera.distanceA - t * Math.cos(half)]);
    expect(p.xPx).toBeCloseTo(800, 6);
  });
  it("move z toward the camera makes things larger; past the near plane they are clipped", () => {
    const far = apparentRadiusPx(camera, toCameraSpace(camera, [0, 0, 0]), 1);
    const near = apparentRadiusPx(camera, toCameraSpace(camera, [0, 0, 20]), 1);
    expect(near).toBeGreaterThan(far);
    expect(projectToPixels(camera, [0, 0, camera.distanceA - 0.1]).clipped).toBe(true);
    expect(projectToPixels(camera, [0, 0, camera.distanceA + 5]).clipped).toBe(true);
    expect(Number.isNaN(projectToPixels(camera, [0, 0, camera.distanceA + 5]).xPx)).toBe(true);
  });
  it("apparent radius on axis is f·r/√(d²−r²)", () => {
    const d = 30;
    const expected = (focalLengthPx(camera) * 1.5) / Math.sqrt(d * d - 1.5 * 1.5);
    expect(apparentRadiusPx(camera, [0, 0, -d], 1.5)).toBeCloseTo(expected, 9);
    expect(apparentRadiusPx(camera, [0, 0, -1], 1.5)).toBe(Number.POSITIVE_INFINITY);
  });
  it("a wide image is limited by its vertical field of view", () => {
    const wide = frameCameraOnRadius(10, { widthPx: 1600, heightPx: 800, paddingFraction: 0 });
    const halfV = Math.atan(Math.tan((15 * Math.PI) / 180) / 2);
    expect(wide.distanceA).toBeCloseTo(10 / Math.sin(halfV), 9);
  });
  it("frameCamera uses the farthest point from the view centre, plus padding", () => {
    const cam = frameCamera(
      [
        [3, 4, 0],
        [0, 0, 1],
      ],
      { widthPx: 100, heightPx: 100, paddingFraction: 0.1 },
    );
    expect(cam.distanceA).toBeCloseTo((5 * 1.1) / Math.sin((15 * Math.PI) / 180), 9);
  });
});
