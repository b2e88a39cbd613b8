/**
 * Greedy label placement: labels are placed one by one in the caller's priority order; each tries a
 * ring of candidate positions around its anchor (then wider rings) and takes the candidate that stays
 * inside the image, overlaps no label placed before it and covers the fewest atom balls. A label that
 * finds no such place is skipped and reported, never drawn on top of another label (unless it is
 * `required`: then it is drawn where it overlaps the fewest labels and reported as forced).
 *
 * Fixed offsets: a request may carry the offset its label had in an earlier image of the same item;
 * it is placed there first whenever that spot is inside the image and clear of other labels, so the
 * label keeps a fixed offset from its atom across images (ChimeraX keeps label offsets).
 */
import { LABEL_CAP_HEIGHT_EM, LABEL_DESCENT_EM, hasDescender, measureTextEm } from "./text-metrics";

export type LabelKind = "atom" | "residue" | "residue-atom";

export interface LabelRequest {
  text: string;
  anchorXPx: number;
  anchorYPx: number;
  /** Radius of the anchor's ball in px: candidates start just outside it. */
  anchorRadiusPx: number;
  fontSizePx: number;
  /**
   * Residue labels may also sit centred on their anchor; atom labels (ligand atoms, T4's residue atoms) and
   * residue-atom labels (a pocket residue's atom in a ligand view) always sit beside it.
   */
  kind: LabelKind;
  /**
   * Offset (px, box centre minus anchor) this label had in an earlier image of the same item. Tried
   * first and kept whenever it stays inside the image and clear of other labels, so a label keeps
   * its place beside its atom from image to image (as ChimeraX labels keep their offsets).
   */
  fixedOffset?: LabelOffset;
  /** Stable identity of the label across images (e.g. "a12": atom 12); copied to the placed label. */
  key?: string;
  /** Never skipped: when no free place exists, the label is drawn at its best place anyway (T4 atom names). */
  required?: boolean;
  /** Candidate rings beyond the usual ones (a label that must find room more than most). */
  extraRings?: number;
  /**
   * Placement tier, lower first (default 0), after the labels with a remembered offset. A later
   * request with the key of a label already placed is dropped: it is that label's fallback.
   */
  tier?: number;
  /** Scene atom the label names or hangs on; copied to the placed label (audits check it is not hidden). */
  anchorAtomIndex?: number;
}

/**
 * Label box centre minus anchor, px, and the anchor ball's radius then. Replayed on a ball of another
 * size (a zoomed view), the offset grows or shrinks along its own direction by the change in radius,
 * so the label keeps its clearance from the ball (ChimeraX offsets live in scene space).
 */
export interface LabelOffset {
  dx: number;
  dy: number;
  anchorRadiusPx: number;
  /** When several remembered labels compete, the one remembered first (lower rank) is placed first. */
  rank?: number;
  /** The atom the label hung on (a residue label keeps its atom while no nearer ball hides it). */
  anchorAtomIndex?: number;
}

/** `offset` replayed on an anchor ball of radius `radiusPx`. */
export function replayOffset(offset: LabelOffset, radiusPx: number): { dx: number; dy: number } {
  const len = Math.hypot(offset.dx, offset.dy);
  if (len < 1e-9) return { dx: 0, dy: 0 };
  const grow = radiusPx - offset.anchorRadiusPx;
  return { dx: offset.dx + (offset.dx / len) * grow, dy: offset.dy + (offset.dy / len) * grow };
}

/** Axis-aligned box in pixel coordinates (x right, y down). */
export interface LabelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlacedLabel {
  /** Index into the request list. */
  requestIndex: number;
  /** The request's key, when it had one. */
  key?: string;
  /** The request's anchor atom, when it had one. */
  anchorAtomIndex?: number;
  text: string;
  kind: LabelKind;
  fontSizePx: number;
  /** Box that the label (glyphs plus halo) is guaranteed to stay within. */
  box: LabelBox;
  /** The part of `box` the glyphs themselves occupy (box minus the halo margin). */
  textBox: LabelBox;
  /** Text anchor point: horizontal centre and baseline. */
  xPx: number;
  baselineYPx: number;
  /** Box centre minus anchor (what `fixedOffset` replays in the next image). */
  offset: LabelOffset;
  /** Drawn although it overlaps another label (a `required` label with no free place). */
  forced: boolean;
}

/** A drawn ball the placer prefers not to cover. */
export interface LabelObstacle {
  xPx: number;
  yPx: number;
  radiusPx: number;
}

export interface PlaceLabelsOptions {
  widthPx: number;
  heightPx: number;
  /** Halo (outline) stroke width in px; half of it extends beyond the glyphs. */
  haloWidthPx: number;
  obstacles: readonly LabelObstacle[];
}

export interface PlaceLabelsResult {
  placed: PlacedLabel[];
  /** Request indices that found no free place. */
  skipped: number[];
}

/** Gap between the anchor ball and the label, and between the label and the image edge, in px. */
const LABEL_GAP_PX = 2;
/** Minimum clear space between two labels in px (also absorbs the SVG's two-decimal rounding). */
const LABEL_SEPARATION_PX = 1;
/** Candidate rings: each further ring moves the label out by one label height. */
const RING_COUNT = 3;
/** A required label tries this many rings before it is drawn over another label. */
const REQUIRED_RING_COUNT = 8;
/** A label one ring further out must save this many covered balls to be preferred. */
const RING_PENALTY_BALLS = 2;
const OBSTACLE_GRID_CELL_PX = 64;
/** Largest share of a label box (its own, and the other label's) a remembered place may overlap. */
const FIXED_OVERLAP_MAX_FRACTION = 0.12;
const DIAGONAL = Math.SQRT1_2;

export interface LabelSize {
  widthPx: number;
  heightPx: number;
  /** Distance from the box top to the text baseline. */
  baselineFromTopPx: number;
  /** Margin between the box and the glyphs on every side (half the halo plus 1 px). */
  padPx: number;
}

/**
 * Box of `text` at `fontSizePx` with a halo stroke of `haloWidthPx`: the glyphs' advance width and
 * cap height (plus descent when needed), grown by half the halo and 1 px on every side.
 */
export function measureLabelPx(text: string, fontSizePx: number, haloWidthPx: number): LabelSize {
  const pad = haloWidthPx / 2 + 1;
  const descent = hasDescender(text) ? LABEL_DESCENT_EM * fontSizePx : 0;
  return {
    widthPx: measureTextEm(text) * fontSizePx + 2 * pad,
    heightPx: LABEL_CAP_HEIGHT_EM * fontSizePx + descent + 2 * pad,
    baselineFromTopPx: pad + LABEL_CAP_HEIGHT_EM * fontSizePx,
    padPx: pad,
  };
}

export function boxesOverlap(a: LabelBox, b: LabelBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Candidate centre offsets (dx, dy) in px around the anchor, in order of preference, with their ring. */
function candidateOffsets(request: LabelRequest, w: number, h: number): { dx: number; dy: number; ring: number }[] {
  const out: { dx: number; dy: number; ring: number }[] = [];
  if (request.kind === "residue") out.push({ dx: 0, dy: 0, ring: 0 });
  const rings = (request.required ? REQUIRED_RING_COUNT : RING_COUNT) + (request.extraRings ?? 0);
  for (let ring = 0; ring < rings; ring++) {
    const r = request.anchorRadiusPx + LABEL_GAP_PX + ring * h;
    const c = request.anchorRadiusPx * DIAGONAL + LABEL_GAP_PX + ring * h;
    out.push(
      { dx: c + w / 2, dy: -(c + h / 2), ring }, // upper right, ChimeraX's habit
      { dx: r + w / 2, dy: 0, ring },
      { dx: c + w / 2, dy: c + h / 2, ring },
      { dx: -(c + w / 2), dy: -(c + h / 2), ring },
      { dx: -(r + w / 2), dy: 0, ring },
      { dx: -(c + w / 2), dy: c + h / 2, ring },
      { dx: 0, dy: -(r + h / 2), ring },
      { dx: 0, dy: r + h / 2, ring },
    );
  }
  return out;
}

/** Uniform grid over the obstacles so a candidate only looks at nearby balls. */
class ObstacleGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly cols: number;
  private readonly maxRadiusPx: number;

  constructor(
    private readonly obstacles: readonly LabelObstacle[],
    widthPx: number,
  ) {
    this.cols = Math.ceil(widthPx / OBSTACLE_GRID_CELL_PX) + 2;
    let maxR = 0;
    obstacles.forEach((o, i) => {
      maxR = Math.max(maxR, o.radiusPx);
      const key = this.keyOf(o.xPx, o.yPx);
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    });
    this.maxRadiusPx = maxR;
  }

  private cellOf(v: number): number {
    return Math.floor(v / OBSTACLE_GRID_CELL_PX);
  }

  private keyOf(x: number, y: number): number {
    return this.cellOf(y) * this.cols + this.cellOf(x);
  }

  /** Number of balls that intersect the box. */
  countCovered(box: LabelBox): number {
    const m = this.maxRadiusPx;
    let count = 0;
    for (let cy = this.cellOf(box.y0 - m); cy <= this.cellOf(box.y1 + m); cy++) {
      for (let cx = this.cellOf(box.x0 - m); cx <= this.cellOf(box.x1 + m); cx++) {
        const list = this.cells.get(cy * this.cols + cx);
        if (!list) continue;
        for (const i of list) {
          const o = this.obstacles[i]!;
          const nx = Math.min(Math.max(o.xPx, box.x0), box.x1);
          const ny = Math.min(Math.max(o.yPx, box.y0), box.y1);
          if ((nx - o.xPx) ** 2 + (ny - o.yPx) ** 2 < o.radiusPx * o.radiusPx) count++;
        }
      }
    }
    return count;
  }
}

/** Places labels greedily in request order (the caller sorts by priority). Deterministic. */
export function placeLabels(requests: readonly LabelRequest[], options: PlaceLabelsOptions): PlaceLabelsResult {
  const grid = new ObstacleGrid(options.obstacles, options.widthPx);
  const placed: PlacedLabel[] = [];
  const skipped: number[] = [];
  const minX = LABEL_GAP_PX;
  const minY = LABEL_GAP_PX;
  const maxX = options.widthPx - LABEL_GAP_PX;
  const maxY = options.heightPx - LABEL_GAP_PX;

  const isFree = (box: LabelBox) => {
    if (box.x0 < minX || box.y0 < minY || box.x1 > maxX || box.y1 > maxY) return false;
    const s = LABEL_SEPARATION_PX;
    const grown = { x0: box.x0 - s, y0: box.y0 - s, x1: box.x1 + s, y1: box.y1 + s };
    return !placed.some((p) => boxesOverlap(p.box, grown));
  };
  // A remembered place is kept while it stays inside the image and its boxes (glyphs plus halo) lose
  // at most FIXED_OVERLAP_MAX_FRACTION of their area to other labels: perspective makes nearby atoms
  // shift by a few px relative to each other between images, and re-solving would move the label.
  // Only halo margins may overlap there: neither box may reach the other label's glyphs.
  const isFreeEnoughForFixed = (box: LabelBox, padPx: number) => {
    if (box.x0 < minX || box.y0 < minY || box.x1 > maxX || box.y1 > maxY) return false;
    const text = { x0: box.x0 + padPx, y0: box.y0 + padPx, x1: box.x1 - padPx, y1: box.y1 - padPx };
    const area = (box.x1 - box.x0) * (box.y1 - box.y0);
    let covered = 0;
    for (const p of placed) {
      if (boxesOverlap(box, p.textBox) || boxesOverlap(text, p.box)) return false;
      const w = Math.min(box.x1, p.box.x1) - Math.max(box.x0, p.box.x0);
      const h = Math.min(box.y1, p.box.y1) - Math.max(box.y0, p.box.y0);
      if (w > 0 && h > 0) {
        const a = w * h;
        if (a > FIXED_OVERLAP_MAX_FRACTION * (p.box.x1 - p.box.x0) * (p.box.y1 - p.box.y0)) return false;
        covered += a;
      }
    }
    return covered <= FIXED_OVERLAP_MAX_FRACTION * area;
  };

  // Labels with a remembered offset go first (in the order they were remembered), so newcomers fit
  // around them; the others follow by tier, then in the caller's order.
  const order = requests.map((_, i) => i);
  const tierOf = (i: number) => requests[i]!.tier ?? 0;
  const rankOf = (i: number) =>
    requests[i]!.fixedOffset?.rank ?? (requests[i]!.fixedOffset ? 0 : Number.POSITIVE_INFINITY);
  order.sort((a, b) => rankOf(a) - rankOf(b) || tierOf(a) - tierOf(b) || a - b);
  const placedKeys = new Set<string>();

  for (const requestIndex of order) {
    const request = requests[requestIndex]!;
    if (request.key !== undefined && placedKeys.has(request.key)) continue;
    const {
      widthPx: w,
      heightPx: h,
      baselineFromTopPx,
      padPx,
    } = measureLabelPx(request.text, request.fontSizePx, options.haloWidthPx);
    const boxAt = (cx: number, cy: number): LabelBox => ({
      x0: cx - w / 2,
      y0: cy - h / 2,
      x1: cx + w / 2,
      y1: cy + h / 2,
    });
    let best: { box: LabelBox; cost: number } | null = null;
    let forced = false;
    if (request.fixedOffset) {
      const o = replayOffset(request.fixedOffset, request.anchorRadiusPx);
      const box = boxAt(request.anchorXPx + o.dx, request.anchorYPx + o.dy);
      if (isFreeEnoughForFixed(box, padPx)) best = { box, cost: 0 };
    }
    if (best === null) {
      for (const c of candidateOffsets(request, w, h)) {
        const box = boxAt(request.anchorXPx + c.dx, request.anchorYPx + c.dy);
        if (!isFree(box)) continue;
        const cost = grid.countCovered(box) + c.ring * RING_PENALTY_BALLS;
        if (best === null || cost < best.cost) best = { box, cost };
        if (cost === 0) break;
      }
    }
    if (best === null) {
      // Near the image edge every ring may stick out: shift the first candidate inside as a last try.
      const first = candidateOffsets(request, w, h)[0]!;
      const cx = Math.min(Math.max(request.anchorXPx + first.dx, minX + w / 2), maxX - w / 2);
      const cy = Math.min(Math.max(request.anchorYPx + first.dy, minY + h / 2), maxY - h / 2);
      const box = boxAt(cx, cy);
      if (isFree(box)) best = { box, cost: 0 };
      else if (request.required) {
        // A required label (an atom name the answer needs) is drawn even where it overlaps: on the
        // wider rings, the candidate inside the image that overlaps the fewest labels.
        let fallback: { box: LabelBox; overlaps: number } = { box, overlaps: Number.POSITIVE_INFINITY };
        for (const c of candidateOffsets(request, w, h)) {
          const b = boxAt(
            Math.min(Math.max(request.anchorXPx + c.dx, minX + w / 2), maxX - w / 2),
            Math.min(Math.max(request.anchorYPx + c.dy, minY + h / 2), maxY - h / 2),
          );
          const overlaps = placed.filter((p) => boxesOverlap(p.box, b)).length;
          if (overlaps < fallback.overlaps) fallback = { box: b, overlaps };
        }
        best = { box: fallback.box, cost: 0 };
        forced = true;
      }
    }
    if (best === null) {
      skipped.push(requestIndex);
      continue;
    }
    const { box } = best;
    if (request.key !== undefined) placedKeys.add(request.key);
    const xPx = (box.x0 + box.x1) / 2;
    placed.push({
      requestIndex,
      ...(request.key !== undefined ? { key: request.key } : {}),
      ...(request.anchorAtomIndex !== undefined ? { anchorAtomIndex: request.anchorAtomIndex } : {}),
      text: request.text,
      kind: request.kind,
      fontSizePx: request.fontSizePx,
      box,
      textBox: { x0: box.x0 + padPx, y0: box.y0 + padPx, x1: box.x1 - padPx, y1: box.y1 - padPx },
      xPx,
      baselineYPx: box.y0 + baselineFromTopPx,
      offset: {
        dx: xPx - request.anchorXPx,
        dy: (box.y0 + box.y1) / 2 - request.anchorYPx,
        anchorRadiusPx: request.anchorRadiusPx,
        ...(request.anchorAtomIndex !== undefined ? { anchorAtomIndex: request.anchorAtomIndex } : {}),
      },
      forced,
    });
  }
  placed.sort((a, b) => a.requestIndex - b.requestIndex);
  // A skipped request whose key a fallback placed, or that a fallback repeats, is reported once or not at all.
  const reported = new Set<string>();
  const finalSkipped = skipped
    .sort((a, b) => a - b)
    .filter((i) => {
      const key = requests[i]!.key;
      if (key === undefined) return true;
      if (placedKeys.has(key) || reported.has(key)) return false;
      reported.add(key);
      return true;
    });
  return { placed, skipped: finalSkipped };
}
