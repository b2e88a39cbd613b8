/**
 * Small explicit 3-vector helpers. Vectors are immutable tuples so they can be stored in JSON
 * (question payloads) and compared in tests without a class.
 */
export type Vec3 = readonly [number, number, number];

export function addVec(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

export function subtractVec(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function scaleVec(a: Vec3, s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}

export function dotVec(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function crossVec(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function lengthVec(a: Vec3): number {
  return Math.hypot(a[0], a[1], a[2]);
}

export function distanceVec(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

export function distanceSquaredVec(a: Vec3, b: Vec3): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  const dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

/** Unit vector in the direction of `a`; the zero vector stays zero (callers check degenerate geometry). */
export function normalizeVec(a: Vec3): Vec3 {
  const len = lengthVec(a);
  return len === 0 ? [0, 0, 0] : [a[0] / len, a[1] / len, a[2] / len];
}

/** Angle in degrees between two vectors (0 for a zero vector). */
export function angleBetweenDeg(a: Vec3, b: Vec3): number {
  const la = lengthVec(a);
  const lb = lengthVec(b);
  if (la === 0 || lb === 0) return 0;
  const c = Math.min(1, Math.max(-1, dotVec(a, b) / (la * lb)));
  return (Math.acos(c) * 180) / Math.PI;
}

/** Angle a–b–c in degrees, at vertex b. */
export function angleAtDeg(a: Vec3, b: Vec3, c: Vec3): number {
  return angleBetweenDeg(subtractVec(a, b), subtractVec(c, b));
}

/** Arithmetic mean of points; the origin for an empty list. */
export function centroidOf(points: readonly Vec3[]): Vec3 {
  if (points.length === 0) return [0, 0, 0];
  let x = 0;
  let y = 0;
  let z = 0;
  for (const p of points) {
    x += p[0];
    y += p[1];
    z += p[2];
  }
  return [x / points.length, y / points.length, z / points.length];
}

export interface BoundingBox {
  min: Vec3;
  max: Vec3;
}

/** Axis-aligned bounding box; null for an empty list. */
export function boundingBoxOf(points: readonly Vec3[]): BoundingBox | null {
  const first = points[0];
  if (!first) return null;
  let [minX, minY, minZ] = first;
  let [maxX, maxY, maxZ] = first;
  for (const p of points) {
    if (p[0] < minX) minX = p[0];
    if (p[1] < minY) minY = p[1];
    if (p[2] < minZ) minZ = p[2];
    if (p[0] > maxX) maxX = p[0];
    if (p[1] > maxY) maxY = p[1];
    if (p[2] > maxZ) maxZ = p[2];
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}

export interface BoundingSphere {
  centre: Vec3;
  radiusA: number;
}

/**
 * Sphere centred on the bounding-box centre that encloses every point. This is the "view centre"
 * of the project's conventions (ChimeraX centres views on the bounding box of the displayed atoms).
 */
export function boundingSphereOf(points: readonly Vec3[]): BoundingSphere | null {
  const box = boundingBoxOf(points);
  if (!box) return null;
  const centre: Vec3 = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
  let r2 = 0;
  for (const p of points) r2 = Math.max(r2, distanceSquaredVec(p, centre));
  return { centre, radiusA: Math.sqrt(r2) };
}
