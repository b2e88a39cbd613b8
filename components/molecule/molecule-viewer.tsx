"use client";

import { Canvas, useThree } from "@react-three/fiber";
import { OrbitControls } from "@react-three/drei";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import * as THREE from "three";
import type { Scene3d } from "@/lib/scene3d";
import { cpkColorOf } from "@/lib/molecule/chemistry/elements";
import { AtomImpostors, BondImpostors, type ImpostorAtoms, type ImpostorBonds } from "./impostors";
import { isSoftwareRenderer } from "./renderer-profile";
import { SceneLabels } from "./scene-labels";
import { participantApi } from "@/components/study/participant-api-client";
import { applyViewKey, viewKeyAction, viewKeysHint } from "./view-keys";

/** Pocket carbons alternate between these by residue; ligand carbons grey (spec §2). */
const POCKET_CARBON_COLORS = ["#BF99F2", "#F2B366"] as const;
const LIGAND_CARBON_COLOR = "#909090";
const BALL_RADIUS_A = 0.35;
const STICK_RADIUS_A = 0.12;
/** Length of a stick's axis inside its ball: there the whole stick (radius STICK_RADIUS_A) lies within the ball. */
const STICK_HIDDEN_IN_BALL_A = Math.sqrt(BALL_RADIUS_A ** 2 - STICK_RADIUS_A ** 2);
/** Above this many atoms the 3D view renders without multisampling (software renderers never use it). */
const MSAA_MAX_ATOMS = 2000;
/** Device pixels per CSS pixel, at most, on a GPU (a software renderer draws one per CSS pixel). */
const MAX_PIXEL_RATIO = 2;
/** Camera path samples are throttled to this interval. */
const CAMERA_SAMPLE_MS = 200;

function atomColor(scene: Scene3d, i: number): string {
  const el = scene.elements[i]!;
  if (el.toUpperCase() === "C") {
    return scene.roles[i] === "l" ? LIGAND_CARBON_COLOR : POCKET_CARBON_COLORS[(scene.residueIndex[i] ?? 0) % 2]!;
  }
  return cpkColorOf(el);
}

/** Per-atom sRGB colours (the impostor shaders write them as they are, like the static renderer's flat colours). */
function atomColors(scene: Scene3d): Float32Array {
  const out = new Float32Array(scene.elements.length * 3);
  const color = new THREE.Color();
  const rgb = { r: 0, g: 0, b: 0 };
  for (let i = 0; i < scene.elements.length; i++) {
    color.set(atomColor(scene, i)).getRGB(rgb, THREE.SRGBColorSpace);
    out.set([rgb.r, rgb.g, rgb.b], 3 * i);
  }
  return out;
}

/** Impostor buffers: one sphere per atom, two half-sticks per bond coloured by their own atom (ChimeraX style). */
export function impostorBuffers(scene: Scene3d): { atoms: ImpostorAtoms; bonds: ImpostorBonds } {
  const colors = atomColors(scene);
  const positions = Float32Array.from(scene.positions);
  const halves = scene.bonds.length;
  const starts = new Float32Array(halves * 3);
  const ends = new Float32Array(halves * 3);
  const bondColors = new Float32Array(halves * 3);
  for (let k = 0; k < halves / 2; k++) {
    const i = scene.bonds[2 * k]!;
    const j = scene.bonds[2 * k + 1]!;
    const length = Math.hypot(
      positions[3 * j]! - positions[3 * i]!,
      positions[3 * j + 1]! - positions[3 * i + 1]!,
      positions[3 * j + 2]! - positions[3 * i + 2]!,
    );
    // Each half-stick starts where it leaves its ball: the part inside is hidden from every direction, and in software
    // GL each of its fragments still ran the shader (they write their depth, so no early depth test skips them).
    const trim = length > 0 ? Math.min(STICK_HIDDEN_IN_BALL_A / length, 0.5) : 0;
    for (let d = 0; d < 3; d++) {
      const a = positions[3 * i + d]!;
      const b = positions[3 * j + d]!;
      const mid = (a + b) / 2;
      starts[6 * k + d] = a + (b - a) * trim;
      ends[6 * k + d] = mid;
      starts[6 * k + 3 + d] = b + (a - b) * trim;
      ends[6 * k + 3 + d] = mid;
      bondColors[6 * k + d] = colors[3 * i + d]!;
      bondColors[6 * k + 3 + d] = colors[3 * j + d]!;
    }
  }
  return {
    atoms: { positions, colors, radii: new Float32Array(scene.elements.length).fill(BALL_RADIUS_A) },
    bonds: { starts, ends, colors: bondColors, radius: STICK_RADIUS_A },
  };
}

/** Records the camera path (orientation quaternion + distance) without React state updates per frame. */
function CameraRecorder({
  onSample,
  onStart,
  originRef,
  sampleNowRef,
}: {
  onSample?: (s: { t: number; q: [number, number, number, number]; d: number }) => void;
  onStart?: () => void;
  originRef: React.RefObject<number | null>;
  /** Filled with "record the pose now": a key move is logged at once, not at the next interval. */
  sampleNowRef: React.RefObject<(() => void) | null>;
}) {
  const { camera, invalidate } = useThree();
  // The parent passes a fresh callback on every render; the recorder must not restart (and reset t) because of it.
  const callback = useRef(onSample);
  const started = useRef(onStart);
  useEffect(() => {
    callback.current = onSample;
    started.current = onStart;
  }, [onSample, onStart]);
  useEffect(() => {
    // One time origin per viewer: "Reset view" remounts the canvas (and this recorder), and the path's t must not
    // restart at 0 there, or samples after a reset read as if they came first.
    // The question's log learns when t = 0 is (event viewer/start), so camera samples and events share a time line.
    if (originRef.current === null) started.current?.();
    const start = originRef.current ?? (originRef.current = performance.now());
    let last = Number.NaN;
    const sample = () => {
      const q = camera.quaternion;
      const d = camera.position.length();
      const key = q.x + q.y * 3 + q.z * 7 + q.w * 11 + d;
      if (Math.abs(key - last) < 1e-6) return;
      last = key;
      callback.current?.({
        t: Math.round(performance.now() - start),
        q: [q.x, q.y, q.z, q.w].map((v) => Math.round(v * 1e4) / 1e4) as [number, number, number, number],
        d: Math.round(d * 100) / 100,
      });
    };
    // The path starts with the initial pose (the static front view), then changes at most every CAMERA_SAMPLE_MS.
    sample();
    const id = setInterval(sample, CAMERA_SAMPLE_MS);
    sampleNowRef.current = sample;
    invalidate();
    return () => {
      clearInterval(id);
      sampleNowRef.current = null;
    };
  }, [camera, invalidate, originRef, sampleNowRef]);
  return null;
}

type OrbitControlsImpl = React.ComponentRef<typeof OrbitControls>;

/** Centroid of the ligand atoms (scene frame), or null when the scene has no ligand. */
export function ligandCentreOf(scene: Scene3d): [number, number, number] | null {
  let n = 0;
  let x = 0;
  let y = 0;
  let z = 0;
  scene.roles.forEach((role, i) => {
    if (role !== "l") return;
    n++;
    x += scene.positions[3 * i]!;
    y += scene.positions[3 * i + 1]!;
    z += scene.positions[3 * i + 2]!;
  });
  return n === 0 ? null : [x / n, y / n, z / n];
}

/**
 * Turns the camera about the ligand: the orbit target moves to the ligand's centroid and the camera moves with it, so
 * the orientation and the distance to the target stay as they were.
 */
function centreOnLigand(controls: OrbitControlsImpl | null, scene: Scene3d) {
  const centre = ligandCentreOf(scene);
  if (!controls || !centre) return;
  const target = new THREE.Vector3(...centre);
  const shift = target.clone().sub(controls.target);
  controls.object.position.add(shift);
  controls.target.copy(target);
  controls.update();
}

export interface MoleculeViewerProps {
  assignmentId: string;
  allowRotate: boolean;
  allowZoom: boolean;
  onCameraSample?: (s: { t: number; q: [number, number, number, number]; d: number }) => void;
  /** Viewer events for the interaction log: start (t = 0 of the camera samples), reset, labels on/off, centre. */
  onEvent?: (type: string, detail: string) => void;
}

/** Interactive 3D view of the item's first image; the initial camera equals the static front view. */
export function MoleculeViewer({ assignmentId, allowRotate, allowZoom, onCameraSample, onEvent }: MoleculeViewerProps) {
  const [scene, setScene] = useState<Scene3d | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const [showLabels, setShowLabels] = useState(true);
  const labelLayer = useRef<HTMLDivElement>(null);
  const controls = useRef<OrbitControlsImpl>(null);
  const pathOrigin = useRef<number | null>(null);
  const sampleNow = useRef<(() => void) | null>(null);
  const invalidateView = useRef<() => void>(() => {});
  const hintId = useId();
  const keysHint = viewKeysHint(allowRotate, allowZoom);
  useEffect(() => {
    let cancelled = false;
    participantApi
      .scene(assignmentId)
      .then((s) => !cancelled && setScene(s))
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [assignmentId]);
  const buffers = useMemo(() => (scene ? impostorBuffers(scene) : null), [scene]);
  const cameraProps = useMemo(
    () =>
      scene
        ? {
            fov: scene.camera.fovDeg,
            position: [0, 0, scene.camera.distanceA] as [number, number, number],
            near: 0.5,
            far: scene.camera.distanceA * 4,
          }
        : undefined,
    [scene],
  );
  if (error) return <p className="text-sm text-red-700">{error}. Use the images below.</p>;
  if (!scene || !cameraProps || !buffers) return <p className="text-sm text-slate-600">Loading the 3D view…</p>;
  // In software GL (SwiftShader, llvmpipe) every sample is CPU work: no multisampling and one pixel per CSS pixel
  // there, which keeps a pocket turning at a usable frame rate (bench:participant).
  const software = isSoftwareRenderer();
  return (
    <div
      className="max-w-[640px] rounded border border-slate-300 bg-black"
      data-ready={ready ? "true" : "false"}
      data-testid="molecule-viewer"
    >
      {/* Focusable and keyboard-operable: the keys turn the molecule about the screen axes and zoom (view-keys.ts),
          logged in the camera path at once like a drag. */}
      <div
        className="relative aspect-square w-full max-w-[640px] overflow-hidden focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-blue-500"
        role="application"
        aria-roledescription="3D view"
        aria-label="Interactive 3D view of the complex"
        aria-describedby={`${hintId}-keys ${hintId}-pointer`}
        tabIndex={0}
        data-testid="view-3d-keys"
        onKeyDown={(e) => {
          const action = viewKeyAction(e);
          if (!action) return;
          if (action.kind === "rotate" && !allowRotate) return;
          if (action.kind === "zoom" && !allowZoom) return;
          // The stage's arrow keys move along the filmstrip; here they turn the view.
          e.preventDefault();
          e.stopPropagation();
          if (action.kind === "reset") {
            setResetKey((k) => k + 1);
            onEvent?.("viewer", "reset");
            return;
          }
          const c = controls.current;
          if (!c) return;
          applyViewKey(
            { position: c.object.position, quaternion: c.object.quaternion, up: c.object.up, target: c.target },
            action,
            c.minDistance,
            c.maxDistance,
          );
          c.update();
          sampleNow.current?.();
          invalidateView.current();
        }}
      >
        <Canvas
          key={resetKey}
          frameloop="demand"
          camera={cameraProps}
          // Multisampling multiplies the fragment work of the impostors; big pockets go without it to stay interactive.
          gl={{ preserveDrawingBuffer: true, antialias: !software && scene.elements.length <= MSAA_MAX_ATOMS }}
          dpr={software ? 1 : [1, MAX_PIXEL_RATIO]}
          onCreated={({ gl, scene: threeScene, camera, invalidate }) => {
            gl.setClearColor("#000000");
            invalidateView.current = invalidate;
            // Diagnostics hook for benchmarks (draw calls, frame time, frames while turning); holds no item data beyond what is drawn.
            (window as unknown as { __misiViewer?: unknown }).__misiViewer = {
              gl,
              scene: threeScene,
              camera,
              invalidate,
            };
            setReady(true);
          }}
        >
          <AtomImpostors atoms={buffers.atoms} />
          <BondImpostors bonds={buffers.bonds} />
          <SceneLabels scene={scene} overlay={labelLayer} show={showLabels} ballRadiusA={BALL_RADIUS_A} />
          <OrbitControls
            ref={controls}
            enableRotate={allowRotate}
            enableZoom={allowZoom}
            enablePan={false}
            enableDamping={false}
            rotateSpeed={0.9}
            minDistance={5}
            maxDistance={scene.camera.distanceA * 3}
          />
          <CameraRecorder
            onSample={onCameraSample}
            onStart={() => onEvent?.("viewer", "start")}
            originRef={pathOrigin}
            sampleNowRef={sampleNow}
          />
        </Canvas>
        <div ref={labelLayer} className="pointer-events-none absolute inset-0" aria-hidden data-testid="label-layer" />
      </div>
      {/* The hint on its own line, the keys and the buttons (never broken inside) on the next: about 66 px at any desktop width,
          where a hint beside the buttons took two lines, then three as the view narrowed (66 → 86 px). The question
          stage measures this height and gives it up from the canvas (components/study/question-stage.tsx). */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 bg-white px-3 py-1.5 text-sm">
        <span className="basis-full" id={`${hintId}-pointer`}>
          {allowRotate ? "Drag to rotate. " : ""}
          {allowZoom ? "Scroll to zoom. " : ""}
          {scene.atomNames ? "Point at or tap an atom for its name. " : ""}
          {!allowRotate && !allowZoom ? "This view is fixed for this task." : ""}
        </span>
        {keysHint ? (
          <span id={`${hintId}-keys`} className="whitespace-nowrap text-xs text-slate-700">
            {keysHint}
          </span>
        ) : null}
        <span className="ml-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-1 whitespace-nowrap">
          {scene.labels && scene.labels.length > 0 ? (
            <label className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={showLabels}
                onChange={(e) => {
                  setShowLabels(e.target.checked);
                  onEvent?.("viewer", e.target.checked ? "labels on" : "labels off");
                }}
              />{" "}
              Labels
            </label>
          ) : null}
          {(allowRotate || allowZoom) && scene.roles.includes("l") ? (
            <button
              type="button"
              className="rounded border border-slate-400 px-2 py-1"
              onClick={() => {
                centreOnLigand(controls.current, scene);
                onEvent?.("viewer", "centre");
              }}
            >
              Centre on ligand
            </button>
          ) : null}
          <button
            type="button"
            className="rounded border border-slate-400 px-2 py-1"
            onClick={() => {
              setResetKey((k) => k + 1);
              onEvent?.("viewer", "reset");
            }}
          >
            Reset view
          </button>
        </span>
      </div>
    </div>
  );
}
