import { describe, expect, it } from "vitest";
import * as THREE from "three";
import {
  applyViewKey,
  KEY_ZOOM_FACTOR,
  viewKeyAction,
  viewKeysHint,
  type OrbitPose,
} from "@/components/molecule/view-keys";

/** The front view: camera on +z at distance d looking at the origin, up +y (the static renderer's camera). */
function frontPose(d = 40): OrbitPose {
  return {
    position: new THREE.Vector3(0, 0, d),
    quaternion: new THREE.Quaternion(),
    up: new THREE.Vector3(0, 1, 0),
    target: new THREE.Vector3(),
  };
}

/** Where a world point appears relative to the target, in screen axes (x right, y up, z out of the screen). */
function onScreen(pose: OrbitPose, p: THREE.Vector3): number[] {
  const v = p.clone().sub(pose.target).applyQuaternion(pose.quaternion.clone().invert());
  return [v.x, v.y, v.z].map((c) => Math.round(c * 1e5) / 1e5 + 0);
}

function press(pose: OrbitPose, key: string, times = 1, shiftKey = false) {
  for (let i = 0; i < times; i++) {
    const action = viewKeyAction({ key, shiftKey });
    if (!action || action.kind === "reset") throw new Error(`no move for ${key}`);
    applyViewKey(pose, action, 5, 120);
  }
}

describe("the 3D view's keys", () => {
  it("→ turns the near side of the molecule to the right about screen Y by 10° (sin 10° = 0.17365, cos 10° = 0.98481)", () => {
    const pose = frontPose();
    const near = new THREE.Vector3(0, 0, 1);
    press(pose, "ArrowRight");
    expect(onScreen(pose, near)).toEqual([0.17365, 0, 0.98481]);
    // The camera stays at its distance from the target.
    expect(pose.position.length()).toBeCloseTo(40, 9);
  });

  it("turns about the screen axes, not the molecule's: → ×9 then ↑ ×9 brings the near side right, then up", () => {
    const pose = frontPose();
    const near = new THREE.Vector3(0, 0, 1);
    press(pose, "ArrowRight", 9);
    expect(onScreen(pose, near)).toEqual([1, 0, 0]);
    // ↑ turns about screen X: the atom at the right edge stays, the top goes to the back.
    const top = new THREE.Vector3(0, 1, 0);
    press(pose, "ArrowUp", 9);
    expect(onScreen(pose, near)).toEqual([1, 0, 0]);
    expect(onScreen(pose, top)).toEqual([0, 0, -1]);
  });

  it("↑ turns the near side up (right-handed about X: a −90° turn takes +z to +y), ↓ and ← undo", () => {
    const pose = frontPose();
    const near = new THREE.Vector3(0, 0, 1);
    press(pose, "ArrowUp", 9);
    expect(onScreen(pose, near)).toEqual([0, 1, 0]);
    press(pose, "ArrowDown", 9);
    press(pose, "ArrowRight", 3);
    press(pose, "ArrowLeft", 3);
    expect(onScreen(pose, near)).toEqual([0, 0, 1]);
    expect(pose.up.toArray().map((c) => Math.round(c * 1e9) / 1e9 + 0)).toEqual([0, 1, 0]);
  });

  it("Shift turns by the fine step of 2° (sin 2° = 0.0349)", () => {
    const pose = frontPose();
    press(pose, "ArrowRight", 1, true);
    expect(onScreen(pose, new THREE.Vector3(0, 0, 1))[0]).toBeCloseTo(0.0349, 4);
  });

  it("+ and − scale the distance to the target by 1.15, within the allowed range", () => {
    const pose = frontPose(40);
    press(pose, "+");
    expect(pose.position.length()).toBeCloseTo(40 / 1.15, 9);
    press(pose, "-", 2);
    expect(pose.position.length()).toBeCloseTo(40 * KEY_ZOOM_FACTOR, 9);
    press(pose, "+", 40);
    expect(pose.position.length()).toBeCloseTo(5, 9);
    press(pose, "-", 40);
    expect(pose.position.length()).toBeCloseTo(120, 9);
    // Zoom does not turn: the view direction is unchanged.
    expect(onScreen(pose, new THREE.Vector3(0, 0, 1))).toEqual([0, 0, 1]);
  });

  it("0 resets; other keys and modified keys do nothing", () => {
    expect(viewKeyAction({ key: "0" })).toEqual({ kind: "reset" });
    expect(viewKeyAction({ key: "=" })).toEqual({ kind: "zoom", factor: 1 / KEY_ZOOM_FACTOR });
    expect(viewKeyAction({ key: "a" })).toBeNull();
    expect(viewKeyAction({ key: "Tab" })).toBeNull();
    expect(viewKeyAction({ key: "ArrowRight", ctrlKey: true })).toBeNull();
    expect(viewKeyAction({ key: "+", metaKey: true })).toBeNull();
  });

  it("lists only the keys the task allows", () => {
    expect(viewKeysHint(true, true)).toBe("Keys: ←→↑↓ turn, +− zoom, 0 reset");
    expect(viewKeysHint(true, false)).toBe("Keys: ←→↑↓ turn, 0 reset");
    expect(viewKeysHint(false, false)).toBeNull();
  });
});
