/**
 * Perspective camera in ChimeraX conventions (spec §2): the camera sits on the +Z axis of the screen
 * frame looking toward −Z at the view centre (the screen-frame origin), with a 30° field of view.
 * ChimeraX's field of view is horizontal; for square images horizontal and vertical agree.
 *
 * Pixel coordinates: (0, 0) is the top-left corner of a W×H image, x grows right, y grows down, and
 * the image centre is (W/2, H/2) (continuous coordinates: pixel i covers [i, i+1)).
 */
import type { Vec3 } from "./vec3";

/** ChimeraX default horizontal field of view. */
export const DEFAULT_FIELD_OF_VIEW_DEG = 30;
/** Extra room around the bounding sphere when framing, as a fraction of its radius. */
export const DEFAULT_FRAMING_PADDING_FRACTION = 0.05;
/** Points closer to the camera than this are flagged: a `move z 60` zoom can push atoms past the lens. */
export const DEFAULT_NEAR_PLANE_A = 0.5;

export interface PerspectiveCamera {
  /** Horizontal field of view. */
  fieldOfViewDeg: number;
  widthPx: number;
  heightPx: number;
  /** Camera position is (0, 0, distanceA) in the screen frame. */
  distanceA: number;
  /** Near-plane distance in front of the camera. */
  nearA: number;
}

export interface FrameCameraOptions {
  widthPx: number;
  heightPx: number;
  fieldOfViewDeg?: number;
  paddingFraction?: number;
  nearA?: number;
}

const DEG_TO_RAD = Math.PI / 180;

/** Focal length in pixels: the horizontal half-width of the image subtends half the field of view. */
export function focalLengthPx(camera: PerspectiveCamera): number {
  return camera.widthPx / 2 / Math.tan((camera.fieldOfViewDeg * DEG_TO_RAD) / 2);
}

/**
 * Camera that frames a sphere of `radiusA` centred on the view centre: the padded sphere just fits
 * inside the narrower of the horizontal and vertical view cones (distance = r / sin(half-angle)).
 */
export function frameCameraOnRadius(radiusA: number, options: FrameCameraOptions): PerspectiveCamera {
  const fieldOfViewDeg = options.fieldOfViewDeg ?? DEFAULT_FIELD_OF_VIEW_DEG;
  const padding = options.paddingFraction ?? DEFAULT_FRAMING_PADDING_FRACTION;
  const halfH = (fieldOfViewDeg * DEG_TO_RAD) / 2;
  const halfV = Math.atan((Math.tan(halfH) * options.heightPx) / options.widthPx);
  const half = Math.min(halfH, halfV);
  const paddedRadius = Math.max(radiusA, 1e-6) * (1 + padding);
  return {
    fieldOfViewDeg,
    widthPx: options.widthPx,
    heightPx: options.heightPx,
    distanceA: paddedRadius / Math.sin(half),
    nearA: options.nearA ?? DEFAULT_NEAR_PLANE_A,
  };
}

/** Camera that frames the given screen-frame points (bounding sphere about the screen-frame origin). */
export function frameCamera(points: readonly Vec3[], options: FrameCameraOptions): PerspectiveCamera {
  let r2 = 0;
  for (const p of points) r2 = Math.max(r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  return frameCameraOnRadius(Math.sqrt(r2), options);
}

/** Screen frame → camera space (camera at the origin looking down −Z; visible points have z < 0). */
export function toCameraSpace(camera: PerspectiveCamera, p: Vec3): Vec3 {
  return [p[0], p[1], p[2] - camera.distanceA];
}

export interface ProjectedPoint {
  xPx: number;
  yPx: number;
  /** Distance in front of the camera along the view direction (positive = in front). */
  depthA: number;
  /** True when the point is closer than the near plane (or behind the camera); xPx/yPx are NaN if behind. */
  clipped: boolean;
}

/** Projects a screen-frame point to pixel coordinates. */
export function projectToPixels(camera: PerspectiveCamera, p: Vec3): ProjectedPoint {
  const depthA = camera.distanceA - p[2];
  const clipped = depthA < camera.nearA;
  if (depthA <= 0) return { xPx: Number.NaN, yPx: Number.NaN, depthA, clipped: true };
  const f = focalLengthPx(camera);
  return {
    xPx: camera.widthPx / 2 + (f * p[0]) / depthA,
    yPx: camera.heightPx / 2 - (f * p[1]) / depthA,
    depthA,
    clipped,
  };
}

/**
 * Apparent radius in pixels of a sphere of `radiusA` centred at a camera-space point: the half-angle
 * of the tangent cone is asin(r/d), drawn at the focal length, i.e. f·r/√(d² − r²) (exact on the view
 * axis; off-axis spheres project to slight ellipses, which ball-and-stick drawing ignores). Infinity
 * when the camera is inside the sphere.
 */
export function apparentRadiusPx(camera: PerspectiveCamera, cameraSpacePoint: Vec3, radiusA: number): number {
  const d2 = cameraSpacePoint[0] ** 2 + cameraSpacePoint[1] ** 2 + cameraSpacePoint[2] ** 2;
  const r2 = radiusA * radiusA;
  if (cameraSpacePoint[2] >= 0 || d2 <= r2) return Number.POSITIVE_INFINITY;
  return (focalLengthPx(camera) * radiusA) / Math.sqrt(d2 - r2);
}
