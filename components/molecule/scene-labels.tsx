"use client";

import { useFrame, useThree } from "@react-three/fiber";
import { useEffect } from "react";
import * as THREE from "three";
import type { Scene3d } from "@/lib/scene3d";

/** Label sizes in CSS px on screen: constant while zooming, like the static images shown large. */
export const LABEL_FONT_PX = { a: 13, r: 14 } as const;
const AVG_CHAR_WIDTH_EM = 0.68;

const _v = new THREE.Vector3();

interface Projected {
  index: number;
  x: number;
  y: number;
  depth: number;
}

/** Positions the label spans of `root` (one per label, in order) for the current camera. */
function layoutLabels(root: HTMLElement, scene: Scene3d, labels: NonNullable<Scene3d["labels"]>, camera: THREE.Camera, width: number, height: number, show: boolean) {
  const list = root.children as HTMLCollectionOf<HTMLElement>;
  if (!show) {
    for (const span of list) span.style.display = "none";
    return;
  }
  const projected: Projected[] = [];
  labels.forEach((label, index) => {
    const i = label.atom;
    _v.set(scene.positions[3 * i]!, scene.positions[3 * i + 1]!, scene.positions[3 * i + 2]!).project(camera);
    if (_v.z < -1 || _v.z > 1) return;
    projected.push({ index, x: ((_v.x + 1) / 2) * width, y: ((1 - _v.y) / 2) * height, depth: _v.z });
  });
  projected.sort((a, b) => a.depth - b.depth);
  const placed: Array<[number, number, number, number]> = [];
  const shown = new Set<number>();
  for (const p of projected) {
    const label = labels[p.index]!;
    const font = LABEL_FONT_PX[label.kind];
    const w = label.text.length * font * AVG_CHAR_WIDTH_EM + 4;
    const h = font + 2;
    // Ligand atom names sit on their atom; residue names just above their anchor atom.
    const cy = label.kind === "a" ? p.y : p.y - h;
    const box: [number, number, number, number] = [p.x - w / 2, cy - h / 2, p.x + w / 2, cy + h / 2];
    if (box[2] < 0 || box[0] > width || box[3] < 0 || box[1] > height) continue;
    if (placed.some((q) => box[0] < q[2] && box[2] > q[0] && box[1] < q[3] && box[3] > q[1])) continue;
    placed.push(box);
    shown.add(p.index);
    const span = list[p.index];
    if (span) {
      span.style.display = "block";
      span.style.transform = `translate(${Math.round(box[0])}px, ${Math.round(box[1])}px)`;
    }
  }
  for (let i = 0; i < list.length; i++) if (!shown.has(i)) list[i]!.style.display = "none";
}

/** Creates one span per label in `root`; returns the cleanup. */
function mountLabels(root: HTMLElement, labels: NonNullable<Scene3d["labels"]>): () => void {
  const spans = labels.map((label) => {
    const span = document.createElement("span");
    span.textContent = label.text;
    span.className = "misi-3d-label";
    span.dataset.kind = label.kind;
    span.style.fontSize = `${LABEL_FONT_PX[label.kind]}px`;
    span.style.display = "none";
    root.appendChild(span);
    return span;
  });
  return () => spans.forEach((span) => span.remove());
}

const NO_LABELS: NonNullable<Scene3d["labels"]> = [];

/**
 * Draws the static views' labels over the 3D view: projected every rendered frame (no React state per frame), nearest
 * first, and a label that would overlap one already placed is hidden (the static renderer also drops crowded labels).
 * The spans live in `overlay` (a positioned element over the canvas).
 */
export function SceneLabels({ scene, overlay, show }: { scene: Scene3d; overlay: React.RefObject<HTMLDivElement | null>; show: boolean }) {
  const { camera, size, invalidate } = useThree();
  const labels = scene.labels ?? NO_LABELS;
  useEffect(() => {
    const root = overlay.current;
    if (!root) return;
    const cleanup = mountLabels(root, labels);
    invalidate();
    return cleanup;
  }, [labels, overlay, invalidate]);
  useEffect(() => invalidate(), [show, invalidate]);
  useFrame(() => {
    if (overlay.current) layoutLabels(overlay.current, scene, labels, camera, size.width, size.height, show);
  });
  return null;
}
