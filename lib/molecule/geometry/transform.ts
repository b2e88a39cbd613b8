import type { Vec3 } from "./vec3";

/**
 * 3×3 matrix, row-major: [m00, m01, m02, m10, m11, m12, m20, m21, m22].
 * Applied to column vectors: p' = M·p.
 */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

export type Axis = "x" | "y" | "z";

export const IDENTITY_MAT3: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Rigid transform p' = R·p + t (a 4×4 [R t; 0 1] matrix without the constant last row). */
export interface RigidTransform {
  rotation: Mat3;
  translation: Vec3;
}

export const IDENTITY_TRANSFORM: RigidTransform = { rotation: IDENTITY_MAT3, translation: [0, 0, 0] };

const DEG_TO_RAD = Math.PI / 180;

/**
 * Rotation by `angleDeg` about a coordinate axis, right-hand rule: looking down the axis towards the
 * origin (axis pointing at the viewer), positive angles turn counter-clockwise. So 90° about z takes
 * (1,0,0) to (0,1,0).
 */
export function rotationAboutAxis(axis: Axis, angleDeg: number): Mat3 {
  const a = angleDeg * DEG_TO_RAD;
  const c = Math.cos(a);
  const s = Math.sin(a);
  switch (axis) {
    case "x":
      return [1, 0, 0, 0, c, -s, 0, s, c];
    case "y":
      return [c, 0, s, 0, 1, 0, -s, 0, c];
    case "z":
      return [c, -s, 0, s, c, 0, 0, 0, 1];
  }
}

/** Matrix product a·b (apply b first, then a). */
export function multiplyMat3(a: Mat3, b: Mat3): Mat3 {
  const out: number[] = new Array<number>(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out[r * 3 + c] = a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
    }
  }
  return out as unknown as Mat3;
}

export function applyMat3(m: Mat3, p: Vec3): Vec3 {
  return [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2],
    m[3] * p[0] + m[4] * p[1] + m[5] * p[2],
    m[6] * p[0] + m[7] * p[1] + m[8] * p[2],
  ];
}

export function applyTransform(t: RigidTransform, p: Vec3): Vec3 {
  const r = applyMat3(t.rotation, p);
  return [r[0] + t.translation[0], r[1] + t.translation[1], r[2] + t.translation[2]];
}

/** Transforms every point (new array; the input is not modified). */
export function applyTransformToAll(t: RigidTransform, points: readonly Vec3[]): Vec3[] {
  return points.map((p) => applyTransform(t, p));
}

/** outer ∘ inner: the transform that applies `inner` first, then `outer` (matrix order outer·inner). */
export function composeTransforms(outer: RigidTransform, inner: RigidTransform): RigidTransform {
  const rotation = multiplyMat3(outer.rotation, inner.rotation);
  const translation = applyTransform(outer, inner.translation);
  return { rotation, translation };
}

export function translationTransform(offset: Vec3): RigidTransform {
  return { rotation: IDENTITY_MAT3, translation: offset };
}

/** Rotation R about the point c: p' = R·(p − c) + c. */
export function rotationAboutPoint(rotation: Mat3, centre: Vec3): RigidTransform {
  const rc = applyMat3(rotation, centre);
  return { rotation, translation: [centre[0] - rc[0], centre[1] - rc[1], centre[2] - rc[2]] };
}
