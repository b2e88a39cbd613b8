import * as THREE from "three";

/**
 * The 3D view's keyboard (WCAG 2.1.1): arrow keys turn the molecule about the screen axes (right-handed: X right, Y up,
 * Z out of the screen), + and − zoom, 0 resets. The molecule turns, so the camera orbits the target the other way.
 */

/** One arrow key turns the molecule by this many degrees (Shift: a fine step). */
export const KEY_ROTATE_DEG = 10;
export const KEY_ROTATE_FINE_DEG = 2;
/** One + (or −) brings the camera this factor closer (or farther). */
export const KEY_ZOOM_FACTOR = 1.15;

/** The keys beside the view, for what this task allows (short: it shares a row with the view's buttons). */
export function viewKeysHint(allowRotate: boolean, allowZoom: boolean): string | null {
  if (!allowRotate && !allowZoom) return null;
  return `Keys: ${[allowRotate ? "←→↑↓ turn" : "", allowZoom ? "+− zoom" : "", "0 reset"].filter(Boolean).join(", ")}`;
}

export type ViewKeyAction =
  { kind: "rotate"; axis: "x" | "y"; deg: number } | { kind: "zoom"; factor: number } | { kind: "reset" };

/**
 * The action of a key, or null. → turns the near side of the molecule to the right (+Y, counter-clockwise seen from
 * above), ← to the left; ↑ turns the near side up (−X), ↓ down (+X).
 */
export function viewKeyAction(e: {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}): ViewKeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const step = e.shiftKey ? KEY_ROTATE_FINE_DEG : KEY_ROTATE_DEG;
  switch (e.key) {
    case "ArrowRight":
      return { kind: "rotate", axis: "y", deg: step };
    case "ArrowLeft":
      return { kind: "rotate", axis: "y", deg: -step };
    case "ArrowUp":
      return { kind: "rotate", axis: "x", deg: -step };
    case "ArrowDown":
      return { kind: "rotate", axis: "x", deg: step };
    case "+":
    case "=":
      return { kind: "zoom", factor: 1 / KEY_ZOOM_FACTOR };
    case "-":
    case "_":
      return { kind: "zoom", factor: KEY_ZOOM_FACTOR };
    case "0":
      return { kind: "reset" };
    default:
      return null;
  }
}

export interface OrbitPose {
  position: THREE.Vector3;
  quaternion: THREE.Quaternion;
  up: THREE.Vector3;
  target: THREE.Vector3;
}

/**
 * Applies a rotate or zoom action to a camera orbiting `target` (in place). Turning the molecule by θ about a screen
 * axis is turning the camera by −θ about the same axis through the target; the camera's up turns with it, so the
 * orbit controls' look-at keeps the orientation. Zoom scales the distance to the target, kept within [minD, maxD].
 */
export function applyViewKey(
  pose: OrbitPose,
  action: Exclude<ViewKeyAction, { kind: "reset" }>,
  minD: number,
  maxD: number,
): void {
  const offset = pose.position.clone().sub(pose.target);
  if (action.kind === "zoom") {
    const d = Math.min(maxD, Math.max(minD, offset.length() * action.factor));
    pose.position.copy(pose.target).add(offset.setLength(d));
    return;
  }
  const screenAxis = action.axis === "x" ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 1, 0);
  const worldAxis = screenAxis.applyQuaternion(pose.quaternion).normalize();
  const turn = new THREE.Quaternion().setFromAxisAngle(worldAxis, (-action.deg * Math.PI) / 180);
  pose.position.copy(pose.target).add(offset.applyQuaternion(turn));
  pose.quaternion.premultiply(turn).normalize();
  pose.up.applyQuaternion(turn).normalize();
}
