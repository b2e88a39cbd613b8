"use client";

import { Canvas, useThree } from "@react-three/fiber";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Scene3d } from "@/lib/scene3d";
import { cameraPoseAt, viewerOffsetMs, type CameraSample, type LogEvent } from "@/lib/results/three-d-usage";
import { AtomImpostors, BondImpostors } from "@/components/molecule/impostors";
import { impostorBuffers, ligandCentreOf } from "@/components/molecule/molecule-viewer";

const SPEEDS = [1, 2, 4] as const;

function PoseDriver({
  camera,
  events,
  centre,
  t,
}: {
  camera: CameraSample[];
  events: LogEvent[];
  centre: [number, number, number] | null;
  t: number;
}) {
  const { camera: cam, invalidate } = useThree();
  useEffect(() => {
    const pose = cameraPoseAt(camera, events, centre, t);
    if (!pose) return;
    cam.position.set(...pose.position);
    cam.quaternion.set(...pose.quaternion);
    cam.updateMatrixWorld();
    invalidate();
  }, [cam, camera, events, centre, t, invalidate]);
  return null;
}

/** What the participant had on the stage at question time t (from the logged stage and compare events). */
function stageAt(events: LogEvent[], t: number): string {
  let main = "3D view";
  let compare = false;
  for (const e of events) {
    if (e.t > t) break;
    if (e.type === "stage" && e.detail) main = e.detail === "3d" ? "3D view" : `image ${e.detail}`;
    if (e.type === "compare") compare = e.detail === "on";
  }
  return compare ? `${main}, side by side with an image` : main;
}

/**
 * Replays one answer's camera path on the item's 3D scene, on the question's clock (0 = question shown, end = answer).
 * The stage line says whether the participant was looking at the 3D view or at an image at that moment.
 */
export function CameraReplay({
  scene,
  camera,
  events,
  endMs,
}: {
  scene: Scene3d;
  camera: CameraSample[];
  events: LogEvent[];
  endMs: number;
}) {
  const buffers = useMemo(() => impostorBuffers(scene), [scene]);
  const centre = useMemo(() => ligandCentreOf(scene), [scene]);
  const sortedEvents = useMemo(() => [...events].sort((a, b) => a.t - b.t), [events]);
  const start = viewerOffsetMs(sortedEvents);
  const [t, setT] = useState(start);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const last = useRef<number | null>(null);
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = (now: number) => {
      const dt = last.current === null ? 0 : now - last.current;
      last.current = now;
      setT((prev) => {
        const next = prev + dt * speed;
        if (next >= endMs) {
          setPlaying(false);
          return endMs;
        }
        return next;
      });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      last.current = null;
    };
  }, [playing, speed, endMs]);
  const viewerEvents = sortedEvents.filter((e) => e.type === "viewer" && e.detail !== "start" && e.t <= t);
  return (
    <div className="max-w-[640px]" data-testid="camera-replay">
      <div
        className="relative aspect-square w-full overflow-hidden rounded border border-slate-300 bg-black"
        role="img"
        aria-label="Replay of the participant's 3D view"
      >
        <Canvas
          frameloop="demand"
          camera={{
            fov: scene.camera.fovDeg,
            position: [0, 0, scene.camera.distanceA],
            near: 0.5,
            far: scene.camera.distanceA * 4,
          }}
          gl={{ preserveDrawingBuffer: true }}
          onCreated={({ gl }) => gl.setClearColor("#000000")}
        >
          <AtomImpostors atoms={buffers.atoms} />
          <BondImpostors bonds={buffers.bonds} />
          <PoseDriver camera={camera} events={sortedEvents} centre={centre} t={t} />
        </Canvas>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
        <button
          type="button"
          className="rounded border border-slate-400 px-2 py-1"
          onClick={() => {
            if (!playing && t >= endMs) setT(0);
            setPlaying(!playing);
          }}
        >
          {playing ? "Pause" : "Play"}
        </button>
        <label className="flex items-center gap-1">
          Speed
          <select
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value) as (typeof SPEEDS)[number])}
            className="rounded border border-slate-400 px-1"
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <input
          type="range"
          min={0}
          max={endMs}
          step={50}
          value={Math.round(t)}
          onChange={(e) => setT(Number(e.target.value))}
          aria-label="Time in the question"
          className="min-w-48 flex-1"
        />
        <span className="tabular-nums" data-testid="replay-time">
          {(t / 1000).toFixed(1)} s / {(endMs / 1000).toFixed(1)} s
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        On screen: <span data-testid="replay-stage">{stageAt(sortedEvents, t)}</span>
        {viewerEvents.length > 0 ? ` · so far: ${viewerEvents.map((e) => e.detail).join(", ")}` : ""}
      </p>
    </div>
  );
}
