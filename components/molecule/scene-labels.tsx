"use client";

import { useFrame, useThree } from "@react-three/fiber";
import { useEffect } from "react";
import * as THREE from "three";
import type { Scene3d } from "@/lib/scene3d";

/** Label sizes in CSS px on screen: constant while zooming, like the static images shown large. */
export const LABEL_FONT_PX = { a: 13, r: 14, n: 15 } as const;
const AVG_CHAR_WIDTH_EM = 0.68;
/** A pointer this close (CSS px) to an atom's edge still picks it: small balls stay tappable on a phone. */
const PICK_SLOP_PX = 4;
/** A press that moves less than this (CSS px) before release is a tap, not a drag. */
const TAP_MAX_MOVE_PX = 6;

const _v = new THREE.Vector3();

interface Projected {
  index: number;
  x: number;
  y: number;
  depth: number;
}

type Box = [number, number, number, number];

function overlaps(box: Box, placed: readonly Box[]): boolean {
  return placed.some((q) => box[0] < q[2] && box[2] > q[0] && box[1] < q[3] && box[3] > q[1]);
}

/** Pixel position (CSS px from the canvas's top left) and NDC depth of atom `i`, or null behind the camera. */
function projectAtom(
  scene: Scene3d,
  i: number,
  camera: THREE.Camera,
  width: number,
  height: number,
): { x: number; y: number; depth: number } | null {
  _v.set(scene.positions[3 * i]!, scene.positions[3 * i + 1]!, scene.positions[3 * i + 2]!).project(camera);
  if (_v.z < -1 || _v.z > 1) return null;
  return { x: ((_v.x + 1) / 2) * width, y: ((1 - _v.y) / 2) * height, depth: _v.z };
}

/** Apparent radius in CSS px of a ball of `radiusA` at atom `i` under a perspective camera. */
function apparentRadiusPx(scene: Scene3d, i: number, radiusA: number, camera: THREE.Camera, height: number): number {
  _v.set(scene.positions[3 * i]!, scene.positions[3 * i + 1]!, scene.positions[3 * i + 2]!).applyMatrix4(
    camera.matrixWorldInverse,
  );
  const depth = -_v.z;
  if (depth <= 0) return 0;
  const fov = camera instanceof THREE.PerspectiveCamera ? camera.fov : 30;
  return (radiusA * (height / 2)) / Math.tan((fov * Math.PI) / 360) / depth;
}

/** What a hover or tap shows for atom `i`: "ASP 25 A OD2", "ligand O1". */
export function atomHoverName(scene: Scene3d, i: number): string {
  const label = scene.labels?.find((l) => l.atom === i && l.kind === "a")?.text;
  const name = scene.atomNames?.[i] || label || scene.elements[i] || "";
  if (scene.roles[i] === "l") return `ligand ${name}`;
  const residue = scene.residueNames?.[scene.residueIndex[i] ?? -1];
  return residue ? `${residue} ${name}` : name;
}

/**
 * The atom under a pointer at (x, y) CSS px: among atoms whose ball (plus a little slop) contains the point, the one
 * nearest the camera; null when the pointer is over no atom.
 */
export function pickAtom(
  scene: Scene3d,
  x: number,
  y: number,
  radiusA: number,
  camera: THREE.Camera,
  width: number,
  height: number,
): number | null {
  let best: number | null = null;
  let bestDepth = Number.POSITIVE_INFINITY;
  for (let i = 0; i < scene.elements.length; i++) {
    const p = projectAtom(scene, i, camera, width, height);
    if (!p || p.depth >= bestDepth) continue;
    const r = apparentRadiusPx(scene, i, radiusA, camera, height) + PICK_SLOP_PX;
    if ((p.x - x) ** 2 + (p.y - y) ** 2 <= r * r) {
      best = i;
      bestDepth = p.depth;
    }
  }
  return best;
}

/**
 * A named label's size in CSS px: measured once it has been laid out, then remembered (text and font never change).
 * Reading offsetWidth every frame, after this frame's style writes, forced a synchronous layout per named atom.
 */
const namedSizes = new WeakMap<HTMLElement, [number, number]>();
function namedLabelSize(span: HTMLElement, text: string): [number, number] {
  const known = namedSizes.get(span);
  if (known) return known;
  const font = LABEL_FONT_PX.n;
  if (span.offsetWidth > 0) {
    const size: [number, number] = [span.offsetWidth, span.offsetHeight];
    namedSizes.set(span, size);
    return size;
  }
  return [text.length * font * AVG_CHAR_WIDTH_EM + 8, font + 6];
}

/** Positions the label spans of `root` for the current camera: named atoms first and always, then the others. */
function layoutLabels(
  root: HTMLElement,
  scene: Scene3d,
  labels: NonNullable<Scene3d["labels"]>,
  camera: THREE.Camera,
  width: number,
  height: number,
  show: boolean,
  radiusA: number,
) {
  const spans = root.querySelectorAll<HTMLElement>(
    ":scope > .misi-3d-label[data-kind=a], :scope > .misi-3d-label[data-kind=r]",
  );
  const placed: Box[] = [];
  // Named atoms (the question's atoms): marked with a ring and labelled whatever else is on screen, kept inside the
  // view when the atom itself leaves it. The overlay sits above the canvas, so nothing in the scene hides them.
  const named = scene.named ?? [];
  const namedSpans = root.querySelectorAll<HTMLElement>(":scope > .misi-3d-label[data-kind=n]");
  const markers = root.querySelectorAll<HTMLElement>(":scope > .misi-3d-marker");
  named.forEach((n, k) => {
    const span = namedSpans[k];
    const marker = markers[k];
    const p = projectAtom(scene, n.atom, camera, width, height);
    if (!span || !marker) return;
    if (!p) {
      span.style.display = "none";
      marker.style.display = "none";
      return;
    }
    const r = Math.max(6, apparentRadiusPx(scene, n.atom, radiusA, camera, height) + 3);
    marker.style.display = "block";
    marker.style.width = marker.style.height = `${Math.round(2 * r)}px`;
    marker.style.transform = `translate(${Math.round(p.x - r)}px, ${Math.round(p.y - r)}px)`;
    const [w, h] = namedLabelSize(span, n.text);
    // Above-right of the ring, else below-left, first spot clear of the labels placed so far; clamped into the view.
    const candidates: Array<[number, number]> = [
      [p.x + r * 0.7, p.y - r * 0.7 - h],
      [p.x - r * 0.7 - w, p.y + r * 0.7],
      [p.x + r * 0.7, p.y + r * 0.7],
      [p.x - r * 0.7 - w, p.y - r * 0.7 - h],
    ];
    let box: Box | null = null;
    for (const [x0, y0] of candidates) {
      const cx = Math.min(Math.max(x0, 0), width - w);
      const cy = Math.min(Math.max(y0, 0), height - h);
      const b: Box = [cx, cy, cx + w, cy + h];
      if (!overlaps(b, placed)) {
        box = b;
        break;
      }
    }
    if (!box) {
      const [x0, y0] = candidates[0]!;
      const cx = Math.min(Math.max(x0, 0), width - w);
      const cy = Math.min(Math.max(y0, 0), height - h);
      box = [cx, cy, cx + w, cy + h];
    }
    placed.push(box);
    span.style.display = "block";
    span.style.transform = `translate(${Math.round(box[0])}px, ${Math.round(box[1])}px)`;
  });

  if (!show) {
    for (const span of spans) span.style.display = "none";
    return;
  }
  const projected: Projected[] = [];
  labels.forEach((label, index) => {
    const p = projectAtom(scene, label.atom, camera, width, height);
    if (p) projected.push({ index, ...p });
  });
  projected.sort((a, b) => a.depth - b.depth);
  const shown = new Set<number>();
  for (const p of projected) {
    const label = labels[p.index]!;
    const font = LABEL_FONT_PX[label.kind];
    const w = label.text.length * font * AVG_CHAR_WIDTH_EM + 4;
    const h = font + 2;
    // Ligand atom names sit on their atom; residue names just above their anchor atom.
    const cy = label.kind === "a" ? p.y : p.y - h;
    const box: Box = [p.x - w / 2, cy - h / 2, p.x + w / 2, cy + h / 2];
    if (box[2] < 0 || box[0] > width || box[3] < 0 || box[1] > height) continue;
    if (overlaps(box, placed)) continue;
    placed.push(box);
    shown.add(p.index);
    const span = spans[p.index];
    if (span) {
      span.style.display = "block";
      span.style.transform = `translate(${Math.round(box[0])}px, ${Math.round(box[1])}px)`;
    }
  }
  for (let i = 0; i < spans.length; i++) if (!shown.has(i)) spans[i]!.style.display = "none";
}

function makeSpan(root: HTMLElement, text: string, kind: "a" | "r" | "n"): HTMLElement {
  const span = document.createElement("span");
  span.textContent = text;
  span.className = kind === "n" ? "misi-3d-label misi-3d-named" : "misi-3d-label";
  span.dataset.kind = kind;
  span.style.fontSize = `${LABEL_FONT_PX[kind]}px`;
  span.style.display = "none";
  root.appendChild(span);
  return span;
}

/** Creates the label spans, the named atoms' rings and the hover name in `root`; returns the cleanup. */
function mountLabels(root: HTMLElement, scene: Scene3d, labels: NonNullable<Scene3d["labels"]>): () => void {
  const nodes: HTMLElement[] = labels.map((label) => makeSpan(root, label.text, label.kind));
  for (const n of scene.named ?? []) {
    const marker = document.createElement("span");
    marker.className = "misi-3d-marker";
    marker.style.display = "none";
    root.appendChild(marker);
    nodes.push(marker);
    const span = makeSpan(root, n.text, "n");
    span.dataset.testid = "named-atom-label";
    nodes.push(span);
  }
  const hover = document.createElement("span");
  hover.className = "misi-3d-label misi-3d-hover";
  hover.dataset.kind = "h";
  hover.dataset.testid = "atom-hover-name";
  hover.style.display = "none";
  root.appendChild(hover);
  nodes.push(hover);
  return () => nodes.forEach((node) => node.remove());
}

const NO_LABELS: NonNullable<Scene3d["labels"]> = [];

/**
 * Draws the static views' labels over the 3D view: projected every rendered frame (no React state per frame), nearest
 * first, and a label that would overlap one already placed is hidden (the static renderer also drops crowded labels).
 * The atoms the question names get a ring and a label that are never hidden. Hovering an atom (or tapping it on a
 * touch screen) shows its name. The spans live in `overlay` (a positioned element over the canvas).
 */
export function SceneLabels({
  scene,
  overlay,
  show,
  ballRadiusA,
}: {
  scene: Scene3d;
  overlay: React.RefObject<HTMLDivElement | null>;
  show: boolean;
  ballRadiusA: number;
}) {
  const { camera, size, invalidate, gl } = useThree();
  const labels = scene.labels ?? NO_LABELS;
  useEffect(() => {
    const root = overlay.current;
    if (!root) return;
    const cleanup = mountLabels(root, scene, labels);
    invalidate();
    return cleanup;
  }, [scene, labels, overlay, invalidate]);
  useEffect(() => invalidate(), [show, invalidate]);
  useFrame(() => {
    if (overlay.current)
      layoutLabels(overlay.current, scene, labels, camera, size.width, size.height, show, ballRadiusA);
  });

  useEffect(() => {
    const canvas = gl.domElement;
    const hoverSpan = () => overlay.current?.querySelector<HTMLElement>(":scope > .misi-3d-hover") ?? null;
    let pinned = false;
    let down: { x: number; y: number } | null = null;
    const showAt = (clientX: number, clientY: number): boolean => {
      const span = hoverSpan();
      if (!span) return false;
      const rect = canvas.getBoundingClientRect();
      const x = clientX - rect.left;
      const y = clientY - rect.top;
      const atom = pickAtom(scene, x, y, ballRadiusA, camera, rect.width, rect.height);
      if (atom === null) {
        span.style.display = "none";
        return false;
      }
      span.textContent = atomHoverName(scene, atom);
      span.dataset.atom = String(atom);
      span.style.display = "block";
      const w = span.offsetWidth;
      const h = span.offsetHeight;
      const left = Math.min(Math.max(x + 12, 0), rect.width - w);
      const top = Math.min(Math.max(y - h - 10, 0), rect.height - h);
      span.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      return true;
    };
    const onMove = (e: PointerEvent) => {
      if (e.pointerType !== "mouse" || e.buttons !== 0) return;
      pinned = false;
      showAt(e.clientX, e.clientY);
    };
    const onDown = (e: PointerEvent) => {
      down = { x: e.clientX, y: e.clientY };
      if (e.pointerType === "mouse" && !pinned) hoverSpan()?.style.setProperty("display", "none");
    };
    const onUp = (e: PointerEvent) => {
      const start = down;
      down = null;
      if (!start || Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_MAX_MOVE_PX) return;
      // A tap (or click) names the atom under it until the next tap elsewhere.
      pinned = showAt(e.clientX, e.clientY);
    };
    const onLeave = () => {
      if (!pinned) hoverSpan()?.style.setProperty("display", "none");
    };
    canvas.addEventListener("pointermove", onMove);
    canvas.addEventListener("pointerdown", onDown);
    canvas.addEventListener("pointerup", onUp);
    canvas.addEventListener("pointerleave", onLeave);
    return () => {
      canvas.removeEventListener("pointermove", onMove);
      canvas.removeEventListener("pointerdown", onDown);
      canvas.removeEventListener("pointerup", onUp);
      canvas.removeEventListener("pointerleave", onLeave);
    };
  }, [gl, camera, scene, overlay, ballRadiusA]);
  return null;
}
