import { describe, expect, it } from "vitest";
import {
  cameraPoseAt,
  quaternionAngleDeg,
  summarizeThreeDUsage,
  threeDUsageOf,
  type CameraSample,
} from "@/lib/results/three-d-usage";

const S = Math.SQRT1_2;
// Front view, then 90° about Y (q = [0, sin 45°, 0, cos 45°]), then 90° more (180° about Y: [0, 1, 0, 0]).
const front: CameraSample["q"] = [0, 0, 0, 1];
const y90: CameraSample["q"] = [0, S, 0, S];
const y180: CameraSample["q"] = [0, 1, 0, 0];

describe("quaternionAngleDeg", () => {
  it("is the rotation angle between orientations, q and -q alike", () => {
    expect(quaternionAngleDeg(front, y90)).toBeCloseTo(90, 6);
    expect(quaternionAngleDeg(front, y180)).toBeCloseTo(180, 6);
    expect(quaternionAngleDeg(y90, [0, -S, 0, -S])).toBeCloseTo(0, 6);
    // 60° about X: [sin 30°, 0, 0, cos 30°].
    expect(quaternionAngleDeg(front, [0.5, 0, 0, Math.sqrt(3) / 2])).toBeCloseTo(60, 6);
  });
});

describe("threeDUsageOf", () => {
  it("is null when the 3D view never rendered", () => {
    expect(threeDUsageOf(null, 1000)).toBeNull();
    expect(threeDUsageOf({ camera: [], events: [{ t: 5, type: "stage", detail: "1" }] }, 1000)).toBeNull();
  });

  it("adds up turns, leaves out the jump of a reset, and aligns the camera clock with the viewer's start event", () => {
    const usage = threeDUsageOf(
      {
        // Camera t is measured from the viewer's start (t = 400 ms after the question was shown).
        camera: [
          { t: 0, q: front, d: 40 },
          { t: 500, q: y90, d: 40 },
          { t: 1000, q: y180, d: 20 },
          // Reset at question time 1700 (camera time 1300): back to the front view, not a turn.
          { t: 1400, q: front, d: 40 },
          { t: 2000, q: y90, d: 80 },
        ],
        events: [
          { t: 400, type: "viewer", detail: "start" },
          { t: 1700, type: "viewer", detail: "reset" },
          { t: 1800, type: "viewer", detail: "labels off" },
          { t: 1900, type: "viewer", detail: "labels on" },
          { t: 2000, type: "viewer", detail: "centre" },
        ],
      },
      3000,
    );
    expect(usage).not.toBeNull();
    // 90 + 90 + (reset excluded) + 90 = 270°.
    expect(usage!.rotationDeg).toBeCloseTo(270, 6);
    expect(usage!.zoomMin).toBe(0.5);
    expect(usage!.zoomMax).toBe(2);
    expect(usage!.resets).toBe(1);
    expect(usage!.labelToggles).toBe(2);
    expect(usage!.centres).toBe(1);
    // Never left the 3D view: all 3000 ms with it, none with an image.
    expect(usage!.time3dMs).toBe(3000);
    expect(usage!.timeImagesMs).toBe(0);
  });

  it("splits the answering time between the 3D view and the images from the stage and compare events", () => {
    const usage = threeDUsageOf(
      {
        camera: [{ t: 0, q: front, d: 40 }],
        events: [
          { t: 1000, type: "stage", detail: "2" }, // 0–1000: 3D
          { t: 2500, type: "stage", detail: "3d" }, // 1000–2500: image 2
          { t: 3000, type: "compare", detail: "on" }, // 2500–3000: 3D; 3000–4000: 3D beside an image
          { t: 4000, type: "stage", detail: "1" }, // 4000–5000: image 1 beside image 2
        ],
      },
      5000,
    );
    expect(usage!.time3dMs).toBe(1000 + 500 + 1000);
    expect(usage!.timeImagesMs).toBe(1500 + 1000 + 1000);
    expect(usage!.answerMs).toBe(5000);
    // Events after the answer do not count.
    expect(
      threeDUsageOf({ camera: [{ t: 0, q: front, d: 40 }], events: [{ t: 9000, type: "stage", detail: "1" }] }, 2000)!
        .time3dMs,
    ).toBe(2000);
  });
});

describe("summarizeThreeDUsage", () => {
  it("gives per-task distributions and accuracy of rotated vs not rotated answers", () => {
    const base = {
      answerMs: 1000,
      time3dMs: 500,
      timeImagesMs: 500,
      zoomMin: 1,
      zoomMax: 1,
      resets: 0,
      labelToggles: 0,
      centres: 0,
    };
    const rows = summarizeThreeDUsage([
      { taskId: "T1", correct: 1, usage: { ...base, rotationDeg: 100, zoomMin: 0.5 } },
      { taskId: "T1", correct: 1, usage: { ...base, rotationDeg: 40, resets: 2 } },
      { taskId: "T1", correct: 0, usage: { ...base, rotationDeg: 5, time3dMs: 1000 } },
      { taskId: "T2", correct: 0, usage: { ...base, rotationDeg: 0, labelToggles: 1 } },
    ]);
    expect(rows.map((r) => r.taskId)).toEqual(["T1", "T2"]);
    const t1 = rows[0]!;
    expect(t1.answers).toBe(3);
    expect(t1.rotationDeg).toEqual({ median: 40, q1: 22.5, q3: 70 });
    expect(t1.share3d.median).toBe(0.5);
    expect(t1.zoomIn.q3).toBe(1.5);
    expect(t1.withReset).toBe(1);
    expect(t1.rotated).toEqual({ answers: 2, correct: 2 });
    expect(t1.notRotated).toEqual({ answers: 1, correct: 0 });
    expect(t1.medianRotationCorrect).toBe(70);
    expect(t1.medianRotationWrong).toBe(5);
    expect(rows[1]!.withLabelToggle).toBe(1);
    expect(rows[1]!.medianRotationCorrect).toBeNull();
  });
});

describe("cameraPoseAt", () => {
  it("places the camera on +Z at the logged distance for the front view, and turns it with the orientation", () => {
    const camera: CameraSample[] = [
      { t: 0, q: front, d: 40 },
      { t: 1000, q: y90, d: 30 },
    ];
    const events = [{ t: 200, type: "viewer", detail: "start" }];
    expect(cameraPoseAt(camera, events, null, 500)!.position).toEqual([0, 0, 40]);
    // 90° about Y turns the camera's +Z offset to +X (right-hand rule); at question time 1200 = camera time 1000.
    const turned = cameraPoseAt(camera, events, null, 1200)!.position;
    expect(turned[0]).toBeCloseTo(30, 9);
    expect(turned[1]).toBeCloseTo(0, 9);
    expect(turned[2]).toBeCloseTo(0, 9);
  });

  it("orbits the ligand centre after Centre on ligand, keeping the logged distance from the origin, until a reset", () => {
    const camera: CameraSample[] = [{ t: 0, q: front, d: 13 }];
    const events = [
      { t: 100, type: "viewer", detail: "centre" },
      { t: 300, type: "viewer", detail: "reset" },
    ];
    const centred = cameraPoseAt(camera, events, [0, 5, 0], 200)!;
    expect(centred.target).toEqual([0, 5, 0]);
    // On the ray (0, 5, 0) + s·(0, 0, 1) at distance 13 from the origin: s = 12 (5-12-13 triangle).
    expect(centred.position[2]).toBeCloseTo(12, 9);
    expect(cameraPoseAt(camera, events, [0, 5, 0], 400)!.target).toEqual([0, 0, 0]);
  });
});
