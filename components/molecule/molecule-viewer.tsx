"use client";

import { Canvas, useThree } from "@react-three/fiber";
import { OrbitControls } from "@react-three/drei";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import * as THREE from "three";
import type { Scene3d } from "@/lib/scene3d";
import { cpkColorOf } from "@/lib/molecule/chemistry/elements";

/** Pocket carbons alternate between these by residue; ligand carbons grey (spec §2). */
const POCKET_CARBON_COLORS = ["#BF99F2", "#F2B366"] as const;
const LIGAND_CARBON_COLOR = "#909090";
const BALL_RADIUS_A = 0.35;
const STICK_RADIUS_A = 0.12;
/** Camera path samples are throttled to this interval. */
const CAMERA_SAMPLE_MS = 200;

// Scratch objects at module scope: per-frame code allocates nothing.
const _matrix = new THREE.Matrix4();
const _position = new THREE.Vector3();
const _quaternion = new THREE.Quaternion();
const _scale = new THREE.Vector3();
const _up = new THREE.Vector3(0, 1, 0);
const _dir = new THREE.Vector3();
const _color = new THREE.Color();

function atomColor(scene: Scene3d, i: number): string {
  const el = scene.elements[i]!;
  if (el.toUpperCase() === "C") {
    return scene.roles[i] === "l" ? LIGAND_CARBON_COLOR : POCKET_CARBON_COLORS[(scene.residueIndex[i] ?? 0) % 2]!;
  }
  return cpkColorOf(el);
}

/** Sphere tessellation by scene size: big pockets get coarser balls so software WebGL stays interactive. */
function sphereSegments(atomCount: number): [number, number] {
  if (atomCount <= 500) return [24, 16];
  if (atomCount <= 1500) return [14, 10];
  return [10, 7];
}

function Atoms({ scene }: { scene: Scene3d }) {
  const ref = useRef<THREE.InstancedMesh>(null);
  const count = scene.elements.length;
  useLayoutEffect(() => {
    const mesh = ref.current;
    if (!mesh) return;
    for (let i = 0; i < count; i++) {
      _position.set(scene.positions[3 * i]!, scene.positions[3 * i + 1]!, scene.positions[3 * i + 2]!);
      _matrix.compose(_position, _quaternion.identity(), _scale.setScalar(BALL_RADIUS_A));
      mesh.setMatrixAt(i, _matrix);
      mesh.setColorAt(i, _color.set(atomColor(scene, i)));
    }
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
  }, [scene, count]);
  return (
    <instancedMesh ref={ref} args={[undefined, undefined, count]}>
      <sphereGeometry args={[1, ...sphereSegments(count)]} />
      <meshStandardMaterial roughness={0.45} metalness={0.05} />
    </instancedMesh>
  );
}

/** Each bond is two half-sticks coloured by their own atom (ChimeraX style). */
function Bonds({ scene }: { scene: Scene3d }) {
  const ref = useRef<THREE.InstancedMesh>(null);
  const halves = scene.bonds.length; // pairs × 2 halves
  useLayoutEffect(() => {
    const mesh = ref.current;
    if (!mesh) return;
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    const mid = new THREE.Vector3();
    for (let k = 0; k < scene.bonds.length / 2; k++) {
      const i = scene.bonds[2 * k]!;
      const j = scene.bonds[2 * k + 1]!;
      a.set(scene.positions[3 * i]!, scene.positions[3 * i + 1]!, scene.positions[3 * i + 2]!);
      b.set(scene.positions[3 * j]!, scene.positions[3 * j + 1]!, scene.positions[3 * j + 2]!);
      mid.addVectors(a, b).multiplyScalar(0.5);
      for (const [h, from, atom] of [[0, a, i], [1, b, j]] as const) {
        _dir.subVectors(mid, from);
        const length = _dir.length();
        _quaternion.setFromUnitVectors(_up, _dir.normalize());
        _position.addVectors(from, mid).multiplyScalar(0.5);
        _matrix.compose(_position, _quaternion, _scale.set(STICK_RADIUS_A, length, STICK_RADIUS_A));
        mesh.setMatrixAt(2 * k + h, _matrix);
        mesh.setColorAt(2 * k + h, _color.set(atomColor(scene, atom)));
      }
    }
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
  }, [scene]);
  if (halves === 0) return null;
  return (
    <instancedMesh ref={ref} args={[undefined, undefined, halves]}>
      <cylinderGeometry args={[1, 1, 1, halves > 3000 ? 6 : 10, 1, true]} />
      <meshStandardMaterial roughness={0.5} />
    </instancedMesh>
  );
}

/** Records the camera path (orientation quaternion + distance) without React state updates per frame. */
function CameraRecorder({ onSample, originRef }: { onSample?: (s: { t: number; q: [number, number, number, number]; d: number }) => void; originRef: React.RefObject<number | null> }) {
  const { camera, invalidate } = useThree();
  // The parent passes a fresh callback on every render; the recorder must not restart (and reset t) because of it.
  const callback = useRef(onSample);
  useEffect(() => {
    callback.current = onSample;
  }, [onSample]);
  useEffect(() => {
    // One time origin per viewer: "Reset view" remounts the canvas (and this recorder), and the path's t must not
    // restart at 0 there, or samples after a reset read as if they came first.
    const start = originRef.current ?? (originRef.current = performance.now());
    let last = Number.NaN;
    const sample = () => {
      const q = camera.quaternion;
      const d = camera.position.length();
      const key = q.x + q.y * 3 + q.z * 7 + q.w * 11 + d;
      if (Math.abs(key - last) < 1e-6) return;
      last = key;
      callback.current?.({ t: Math.round(performance.now() - start), q: [q.x, q.y, q.z, q.w].map((v) => Math.round(v * 1e4) / 1e4) as [number, number, number, number], d: Math.round(d * 100) / 100 });
    };
    // The path starts with the initial pose (the static front view), then changes at most every CAMERA_SAMPLE_MS.
    sample();
    const id = setInterval(sample, CAMERA_SAMPLE_MS);
    invalidate();
    return () => clearInterval(id);
  }, [camera, invalidate, originRef]);
  return null;
}

export interface MoleculeViewerProps {
  assignmentId: string;
  allowRotate: boolean;
  allowZoom: boolean;
  onCameraSample?: (s: { t: number; q: [number, number, number, number]; d: number }) => void;
}

/** Interactive 3D view of the item's first image; the initial camera equals the static front view. */
export function MoleculeViewer({ assignmentId, allowRotate, allowZoom, onCameraSample }: MoleculeViewerProps) {
  const [scene, setScene] = useState<Scene3d | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const pathOrigin = useRef<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    fetch(`/api/participant/scene/${assignmentId}`)
      .then(async (r) => (r.ok ? ((await r.json()) as Scene3d) : Promise.reject(new Error(`3D view unavailable (${r.status})`))))
      .then((s) => !cancelled && setScene(s))
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [assignmentId]);
  const cameraProps = useMemo(
    () => (scene ? { fov: scene.camera.fovDeg, position: [0, 0, scene.camera.distanceA] as [number, number, number], near: 0.5, far: scene.camera.distanceA * 4 } : undefined),
    [scene],
  );
  if (error) return <p className="text-sm text-red-700">{error}. Use the images below.</p>;
  if (!scene || !cameraProps) return <p className="text-sm text-slate-600">Loading the 3D view…</p>;
  return (
    <div className="max-w-[640px] rounded border border-slate-300 bg-black" data-ready={ready ? "true" : "false"} data-testid="molecule-viewer">
      <div className="aspect-square w-full max-w-[640px]">
        <Canvas
          key={resetKey}
          frameloop="demand"
          camera={cameraProps}
          gl={{ preserveDrawingBuffer: true, antialias: true }}
          onCreated={({ gl, scene: threeScene, camera }) => {
            gl.setClearColor("#000000");
            // Diagnostics hook for benchmarks (draw calls, frame time); holds no item data beyond what is drawn.
            (window as unknown as { __misiViewer?: unknown }).__misiViewer = { gl, scene: threeScene, camera };
            setReady(true);
          }}
          aria-label="Interactive 3D view of the complex"
        >
          <ambientLight intensity={0.55} />
          <directionalLight position={[5, 8, 10]} intensity={1.6} />
          <Atoms scene={scene} />
          <Bonds scene={scene} />
          <OrbitControls enableRotate={allowRotate} enableZoom={allowZoom} enablePan={false} enableDamping={false} rotateSpeed={0.9} minDistance={5} maxDistance={scene.camera.distanceA * 3} />
          <CameraRecorder onSample={onCameraSample} originRef={pathOrigin} />
        </Canvas>
      </div>
      <div className="flex items-center justify-between bg-white px-3 py-2 text-sm">
        <span>
          {allowRotate ? "Drag to rotate. " : ""}
          {allowZoom ? "Scroll to zoom. " : ""}
          {!allowRotate && !allowZoom ? "This view is fixed for this task." : ""}
        </span>
        <button type="button" className="rounded border border-slate-400 px-2 py-1" onClick={() => setResetKey((k) => k + 1)}>
          Reset view
        </button>
      </div>
    </div>
  );
}
