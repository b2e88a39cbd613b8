/**
 * Checks on what the renderer drew, shared by tests and bench/labels.mts: which atoms are hidden behind
 * a nearer ball, and which labels cover another label's text.
 */
import { type PlacedLabel, boxesOverlap } from "./label-placer";

/** A drawn ball as the checks need it (see `ProjectedBall` in svg.ts). */
export interface BallOnImage {
  xPx: number;
  yPx: number;
  radiusPx: number;
  depthA: number;
  visible: boolean;
}

const GRID_CELL_PX = 32;

/**
 * `hidden[i]` is true when ball i is not drawn, or when its centre lies inside the disc of a nearer
 * drawn ball (a label hung on it would point at another atom).
 */
export function findHiddenAtoms(balls: readonly BallOnImage[]): boolean[] {
  let maxR = 0;
  const cells = new Map<string, number[]>();
  const cellOf = (v: number) => Math.floor(v / GRID_CELL_PX);
  balls.forEach((b, i) => {
    if (!b.visible) return;
    maxR = Math.max(maxR, b.radiusPx);
    const key = `${cellOf(b.xPx)},${cellOf(b.yPx)}`;
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  });
  const reach = Math.ceil(maxR / GRID_CELL_PX);
  return balls.map((b, i) => {
    if (!b.visible) return true;
    const cx = cellOf(b.xPx);
    const cy = cellOf(b.yPx);
    for (let y = cy - reach; y <= cy + reach; y++) {
      for (let x = cx - reach; x <= cx + reach; x++) {
        for (const j of cells.get(`${x},${y}`) ?? []) {
          if (j === i) continue;
          const o = balls[j]!;
          if (o.depthA >= b.depthA) continue;
          if ((o.xPx - b.xPx) ** 2 + (o.yPx - b.yPx) ** 2 < o.radiusPx * o.radiusPx) return true;
        }
      }
    }
    return false;
  });
}

export interface LabelOverlap {
  /** The label whose box covers part of the other label's glyphs. */
  covering: string;
  covered: string;
}

/** Pairs of placed labels where one label's box (glyphs plus halo) covers part of the other's glyphs. */
export function findLabelOverlaps(placed: readonly PlacedLabel[]): LabelOverlap[] {
  const out: LabelOverlap[] = [];
  for (let i = 0; i < placed.length; i++) {
    for (let j = 0; j < placed.length; j++) {
      if (i === j) continue;
      const a = placed[i]!;
      const b = placed[j]!;
      if (boxesOverlap(a.box, b.textBox)) out.push({ covering: a.text, covered: b.text });
    }
  }
  return out;
}
