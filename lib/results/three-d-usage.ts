import { quantileSorted } from "@/lib/stats/descriptive";

/**
 * How a participant used the interactive 3D view on one question, derived from the interaction log the browser sends
 * with the answer (components/study: camera samples from the viewer, stage and viewer events).
 *
 * Clocks: events carry t in ms since the question was shown; camera samples carry t in ms since the viewer first
 * rendered, and the viewer reports that moment as the event `viewer`/`start` so both can be put on one time line.
 */
export interface CameraSample {
  t: number;
  /** Camera orientation quaternion [x, y, z, w]. */
  q: [number, number, number, number];
  /** Camera distance from the scene origin (Å). */
  d: number;
}

export interface LogEvent {
  t: number;
  type: string;
  detail?: string;
}

export interface InteractionLogInput {
  camera?: CameraSample[];
  events?: LogEvent[];
}

export interface ThreeDUsage {
  /** Time from the question being shown to the answer (ms): the time line the two times below are parts of. */
  answerMs: number;
  /** Time the 3D view was the main view (ms). */
  time3dMs: number;
  /** Time an image was on the stage, as the main view or side by side with the main view (ms). Side by side with the
   * 3D view, that time counts for both. */
  timeImagesMs: number;
  /** Sum of the angles between consecutive camera orientations (degrees); jumps caused by "Reset view" excluded. */
  rotationDeg: number;
  /** Smallest and largest camera distance relative to the first sample's (1 = never zoomed). */
  zoomMin: number;
  zoomMax: number;
  resets: number;
  labelToggles: number;
  centres: number;
}

/** Below this total turn an answer counts as "did not rotate": the sampler's rounding and a stray click stay under it. */
export const ROTATED_THRESHOLD_DEG = 15;

/**
 * Angle (degrees) of the rotation taking orientation a to orientation b (q and −q are the same orientation). The
 * 4·atan2(|a − b|, |a + b|) form keeps small angles exact, where 2·acos(a·b) loses them to rounding near 1.
 */
export function quaternionAngleDeg(a: readonly number[], b: readonly number[]): number {
  const na = Math.hypot(a[0]!, a[1]!, a[2]!, a[3]!);
  const nb = Math.hypot(b[0]!, b[1]!, b[2]!, b[3]!);
  if (na === 0 || nb === 0) return 0;
  const sign = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! < 0 ? -1 : 1;
  const u = a.map((v) => v / na);
  const w = b.map((v) => (sign * v) / nb);
  const diff = Math.hypot(u[0]! - w[0]!, u[1]! - w[1]!, u[2]! - w[2]!, u[3]! - w[3]!);
  const sum = Math.hypot(u[0]! + w[0]!, u[1]! + w[1]!, u[2]! + w[2]!, u[3]! + w[3]!);
  return (4 * Math.atan2(diff, sum) * 180) / Math.PI;
}

/**
 * The usage metrics of one answer, or null when the 3D view never rendered (no camera samples: a static-condition
 * answer, a task without a 3D view, or a viewer that failed to load). `answerMs` is the participant's time to answer
 * (rtClientMs); without it the last logged moment ends the time line.
 */
export function threeDUsageOf(
  log: InteractionLogInput | null | undefined,
  answerMs: number | null,
): ThreeDUsage | null {
  const camera = log?.camera ?? [];
  if (camera.length === 0) return null;
  const events = [...(log?.events ?? [])].sort((x, y) => x.t - y.t);
  const start = events.find((e) => e.type === "viewer" && e.detail === "start");
  const offset = start ? start.t : 0;
  const resetsAt = events.filter((e) => e.type === "viewer" && e.detail === "reset").map((e) => e.t);

  // Rotation: a reset remounts the viewer at the front view; the step across it is not the participant's turn.
  let rotationDeg = 0;
  for (let i = 1; i < camera.length; i++) {
    const from = camera[i - 1]!.t + offset;
    const to = camera[i]!.t + offset;
    if (resetsAt.some((r) => r >= from && r <= to)) continue;
    rotationDeg += quaternionAngleDeg(camera[i - 1]!.q, camera[i]!.q);
  }
  const d0 = camera[0]!.d;
  const ratios = d0 > 0 ? camera.map((s) => s.d / d0) : [1];

  const lastT = Math.max(0, ...events.map((e) => e.t), ...camera.map((s) => s.t + offset));
  const end = answerMs !== null && answerMs >= 0 ? answerMs : lastT;
  let current = "3d";
  let compare = false;
  let at = 0;
  let time3dMs = 0;
  let timeImagesMs = 0;
  const advance = (to: number) => {
    const span = Math.max(0, Math.min(to, end) - at);
    if (current === "3d") time3dMs += span;
    if (current !== "3d" || compare) timeImagesMs += span;
    at = Math.max(at, Math.min(to, end));
  };
  for (const e of events) {
    if (e.type === "stage" && e.detail) {
      advance(e.t);
      current = e.detail;
    } else if (e.type === "compare") {
      advance(e.t);
      compare = e.detail === "on";
    }
  }
  advance(end);

  const count = (detail: string) => events.filter((e) => e.type === "viewer" && e.detail?.startsWith(detail)).length;
  return {
    answerMs: end,
    time3dMs,
    timeImagesMs,
    rotationDeg,
    zoomMin: Math.min(...ratios),
    zoomMax: Math.max(...ratios),
    resets: resetsAt.length,
    labelToggles: count("labels"),
    centres: count("centre"),
  };
}

export interface UsageAnswer {
  taskId: string;
  correct: 0 | 1;
  usage: ThreeDUsage;
}

export interface Distribution {
  median: number;
  q1: number;
  q3: number;
}

export interface TaskUsageSummary {
  taskId: string;
  /** Answers given with the 3D view on screen at least once. */
  answers: number;
  /** Share of the answering time the 3D view was the main view. */
  share3d: Distribution;
  rotationDeg: Distribution;
  /** Largest zoom-in (first distance / smallest distance; 1 = none). */
  zoomIn: Distribution;
  /** Answers with at least one reset / label toggle. */
  withReset: number;
  withLabelToggle: number;
  /** Accuracy of answers that turned the view at least ROTATED_THRESHOLD_DEG, and of those that did not. */
  rotated: { answers: number; correct: number };
  notRotated: { answers: number; correct: number };
  /** Median total rotation of correct and of wrong answers. */
  medianRotationCorrect: number | null;
  medianRotationWrong: number | null;
}

function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  // Callers pass at least one value (a task appears only with answers).
  return {
    median: quantileSorted(sorted, 0.5) as number,
    q1: quantileSorted(sorted, 0.25) as number,
    q3: quantileSorted(sorted, 0.75) as number,
  };
}

function medianOrNull(values: number[]): number | null {
  return values.length === 0
    ? null
    : quantileSorted(
        [...values].sort((a, b) => a - b),
        0.5,
      );
}

/** Per-task distributions of the usage metrics and their relation to correctness; tasks in first-seen order. */
export function summarizeThreeDUsage(answers: UsageAnswer[]): TaskUsageSummary[] {
  const byTask = new Map<string, UsageAnswer[]>();
  for (const a of answers) byTask.set(a.taskId, [...(byTask.get(a.taskId) ?? []), a]);
  return [...byTask].map(([taskId, list]) => {
    const rotated = list.filter((a) => a.usage.rotationDeg >= ROTATED_THRESHOLD_DEG);
    const notRotated = list.filter((a) => a.usage.rotationDeg < ROTATED_THRESHOLD_DEG);
    const share = list.map((a) => (a.usage.answerMs > 0 ? a.usage.time3dMs / a.usage.answerMs : 0));
    return {
      taskId,
      answers: list.length,
      share3d: distribution(share),
      rotationDeg: distribution(list.map((a) => a.usage.rotationDeg)),
      zoomIn: distribution(list.map((a) => (a.usage.zoomMin > 0 ? 1 / a.usage.zoomMin : 1))),
      withReset: list.filter((a) => a.usage.resets > 0).length,
      withLabelToggle: list.filter((a) => a.usage.labelToggles > 0).length,
      rotated: { answers: rotated.length, correct: rotated.filter((a) => a.correct === 1).length },
      notRotated: { answers: notRotated.length, correct: notRotated.filter((a) => a.correct === 1).length },
      medianRotationCorrect: medianOrNull(list.filter((a) => a.correct === 1).map((a) => a.usage.rotationDeg)),
      medianRotationWrong: medianOrNull(list.filter((a) => a.correct === 0).map((a) => a.usage.rotationDeg)),
    };
  });
}

export interface CameraPose {
  position: [number, number, number];
  quaternion: [number, number, number, number];
  target: [number, number, number];
}

/** Rotates v by the unit quaternion q = [x, y, z, w]. */
function rotate(q: readonly number[], v: readonly [number, number, number]): [number, number, number] {
  const [x, y, z, w] = q as [number, number, number, number];
  // v' = v + 2w (u × v) + 2 u × (u × v), u = (x, y, z)
  const cx = y * v[2] - z * v[1];
  const cy = z * v[0] - x * v[2];
  const cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

/** Milliseconds between the question being shown and the viewer's first frame (0 when the log has no start event). */
export function viewerOffsetMs(events: readonly LogEvent[]): number {
  return events.find((e) => e.type === "viewer" && e.detail === "start")?.t ?? 0;
}

/**
 * The camera at question time `t` (ms since shown) for a replay: the last sample at or before t. The viewer orbits a
 * target, the origin (the scene's centre) until "Centre on ligand" moves it to the ligand's centroid (until the next
 * reset). The log holds the orientation and the distance from the origin, so after a centring the camera is placed on
 * its viewing ray from that target at the logged distance from the origin.
 */
export function cameraPoseAt(
  camera: readonly CameraSample[],
  events: readonly LogEvent[],
  ligandCentre: [number, number, number] | null,
  t: number,
): CameraPose | null {
  if (camera.length === 0) return null;
  const offset = viewerOffsetMs(events);
  let sample = camera[0]!;
  for (const s of camera) if (s.t + offset <= t) sample = s;
  let centred = false;
  for (const e of [...events].sort((a, b) => a.t - b.t)) {
    if (e.t > t || e.type !== "viewer") continue;
    if (e.detail === "centre") centred = ligandCentre !== null;
    else if (e.detail === "reset") centred = false;
  }
  const view = rotate(sample.q, [0, 0, 1]);
  const target: [number, number, number] = centred && ligandCentre ? ligandCentre : [0, 0, 0];
  // |target + s·view| = d, the root on the camera's side of the target.
  const b = target[0] * view[0] + target[1] * view[1] + target[2] * view[2];
  const c = target[0] ** 2 + target[1] ** 2 + target[2] ** 2 - sample.d ** 2;
  const s = -b + Math.sqrt(Math.max(0, b * b - c));
  return {
    position: [target[0] + s * view[0], target[1] + s * view[1], target[2] + s * view[2]],
    quaternion: sample.q,
    target,
  };
}
