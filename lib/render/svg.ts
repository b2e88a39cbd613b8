/**
 * Static renderer: resolved scene → SVG, ball-and-stick in the MiSI-Bench (ChimeraX-like) style.
 *
 * Pure and deterministic: the same scene and settings give byte-identical output (pixel quantities
 * rounded to the step the pixels need, see `svgNumberDecimals`; gradient ids numbered by sorted colour;
 * no dates, no random or content ids).
 * The SVG carries nothing beyond the picture: no metadata, no title, no transform, no atom ids, so an
 * image file can't leak the answer of the item it illustrates.
 *
 * Drawing: painter's algorithm over balls and half-bond sticks (each half in its atom's colour, as
 * ChimeraX draws bonds), farthest first, under a perspective camera (lib/molecule camera). Balls are
 * shaded by one radial gradient per colour; sticks get a darker body and a light highlight line.
 * Labels come last, on top, placed by the greedy label placer.
 */
import {
  type PerspectiveCamera,
  apparentRadiusPx,
  projectToPixels,
  toCameraSpace,
} from "@/lib/molecule/geometry/camera";
import { vdwRadiusOf } from "@/lib/molecule/chemistry/elements";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import { atomColorOf, darkenHex, lightenHex } from "./colors";
import {
  type LabelKind,
  type LabelObstacle,
  type LabelOffset,
  type LabelRequest,
  type PlacedLabel,
  placeLabels,
} from "./label-placer";
import { findHiddenAtoms } from "./label-audit";
import { type Scene, type SceneResidueLabel, validateScene } from "./scene";
import { LABEL_REFERENCE_SIZE_PX, type RenderSettings } from "./settings";

export interface RenderSvgStats {
  atomsDrawn: number;
  /** Atoms not drawn: behind the near plane or entirely outside the image. */
  atomsCulled: number;
  halfBondsDrawn: number;
  labelsPlaced: PlacedLabel[];
  /** Texts of labels that found no free place (their anchors were drawn). */
  labelsSkipped: string[];
}

/**
 * Label offsets shared by the images of one item (key: "a<atom index>" or "r<residue label index>"):
 * read to place each label where it sat before, and filled with the offsets of labels placed for the
 * first time. Pass the same map to every image of an item that shows the same atoms.
 */
export type LabelOffsetMemory = Map<string, LabelOffset>;

/**
 * How many images of an item have shown each label so far (same keys as `LabelOffsetMemory`): read to
 * serve the least-shown labels first, and updated with the labels this image places.
 */
export type LabelCoverage = Map<string, number>;

/**
 * In how many images of an item each atom is drawn with no nearer ball hiding it (keys "a<atom index>"):
 * a residue-atom label with few chances is placed before one that later images can still name.
 */
export type LabelChances = Map<string, number>;

export interface RenderSvgOptions {
  labelOffsets?: LabelOffsetMemory;
  labelCoverage?: LabelCoverage;
  labelChances?: LabelChances;
}

/** Adds to `chances` the atoms this image of `scene` shows unhidden (see `LabelChances`). */
export function countLabelChances(scene: Scene, settings: RenderSettings, chances: LabelChances): void {
  const hidden = findHiddenAtoms(
    projectBalls(scene, { ...scene.camera, widthPx: settings.widthPx, heightPx: settings.heightPx }, settings),
  );
  scene.atoms.forEach((atom, i) => {
    if (atom.label !== undefined && !hidden[i]) chances.set(`a${i}`, (chances.get(`a${i}`) ?? 0) + 1);
  });
}

export interface RenderSvgResult {
  svg: string;
  stats: RenderSvgStats;
}

/** Stick body tint (toward black) and highlight tint (toward white); the highlight is this fraction of the stick width. */
const STICK_BODY_DARKEN = 0.12;
const STICK_HIGHLIGHT_LIGHTEN = 0.45;
const STICK_HIGHLIGHT_WIDTH_FRACTION = 0.35;
/** Highlight line offset toward the light (upper left), as a fraction of the stick width. */
const STICK_HIGHLIGHT_OFFSET_FRACTION = 0.18;
/**
 * Light comes from the upper left: the gradient's focal point in the ball's bounding box. Fractions of
 * the box, not pixels, written as they are (the gradients are in <defs>, once per colour).
 */
const BALL_HIGHLIGHT_FOCUS = { fx: 0.36, fy: 0.32 } as const;
const BALL_HIGHLIGHT_LIGHTEN = 0.6;
const BALL_EDGE_DARKEN = 0.6;

/** Residue-atom rank within its tier: views shown so far, times this, plus the views that can show it. */
const RANK_PER_VIEW = 100;

/** Extra candidate rings for a label (ligand atom, contact-shell residue) that earlier images could not place often enough. */
const SHORT_LABEL_EXTRA_RINGS = 2;

/**
 * Rounding step of every pixel quantity in the SVG (positions, radii, stroke widths, font sizes), in
 * px of a 1024-px view, scaled with the view's smaller side. Why 0.1: rasterisers that supersample an
 * edge (tiny-skia, which draws our PNGs, and Skia's scan converter) resolve coverage on a quarter-pixel
 * grid, so an edge moved by less than half of that, 1/8 px, shows nothing new. Rounding to 0.1 px moves
 * an edge by at most 0.05 px: under 1/8 px even with the view shown at twice its size (a 1024-px view on
 * the question page's ≥ 600 CSS px at a 2× screen). Finer digits cost bytes that even gzip cannot shed
 * (issue 31: 38 → 30 KB gzip per view).
 */
const PIXEL_STEP_AT_REFERENCE_PX = 0.1;

/** Decimals printed for pixel quantities in an image of these settings: 1 at 1024 px, 2 at 256–512 px. */
export function svgNumberDecimals(settings: Pick<RenderSettings, "widthPx" | "heightPx">): number {
  const step = (PIXEL_STEP_AT_REFERENCE_PX * Math.min(settings.widthPx, settings.heightPx)) / LABEL_REFERENCE_SIZE_PX;
  // The epsilon keeps an exact power of ten (0.1 → 1 decimal) from rounding up to the next decimal.
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

/**
 * Formats a pixel quantity to `decimals` decimals with no trailing zeros ("12.5", "12", never "12.50");
 * "-0" becomes "0" so equal pictures stay equal byte-wise. The one formatter for every number the
 * picture's geometry writes.
 */
function pixelFormatter(decimals: number): (n: number) => string {
  // toFixed and a scan for zeros: String(Math.round(n * 10) / 10) prints the same but takes about three times as long.
  return (n) => {
    let s = n.toFixed(decimals);
    if (decimals > 0) {
      let end = s.length;
      while (s.charCodeAt(end - 1) === 48 /* 0 */) end--;
      if (s.charCodeAt(end - 1) === 46 /* . */) end--;
      s = s.slice(0, end);
    }
    return s === "-0" ? "0" : s;
  };
}

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&apos;",
  );
}

export interface ProjectedBall {
  xPx: number;
  yPx: number;
  radiusPx: number;
  depthA: number;
  color: string;
  /** Behind the near plane or the camera: nothing attached to it is drawn. */
  clipped: boolean;
  /** Drawn: not clipped and touching the image. */
  visible: boolean;
}

type DrawItem =
  | { kind: "ball"; depthA: number; atom: number }
  | { kind: "stick"; depthA: number; x1: number; y1: number; x2: number; y2: number; widthPx: number; color: string };

function midpoint(a: Vec3, b: Vec3): Vec3 {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}

/** Every atom's ball as drawn in an image of `camera`'s size (centre and radius in px, depth in Å). */
export function projectBalls(scene: Scene, camera: PerspectiveCamera, settings: RenderSettings): ProjectedBall[] {
  const { widthPx: w, heightPx: h } = camera;
  return scene.atoms.map((atom) => {
    const p = projectToPixels(camera, atom.position);
    const radiusA = vdwRadiusOf(atom.element) * settings.ballRadiusScale;
    const radiusPx = p.clipped ? Number.NaN : apparentRadiusPx(camera, toCameraSpace(camera, atom.position), radiusA);
    const clipped = p.clipped || !Number.isFinite(radiusPx);
    const visible =
      !clipped && p.xPx + radiusPx >= 0 && p.xPx - radiusPx <= w && p.yPx + radiusPx >= 0 && p.yPx - radiusPx <= h;
    return {
      xPx: p.xPx,
      yPx: p.yPx,
      radiusPx,
      depthA: p.depthA,
      color: atomColorOf(atom, settings.colors),
      clipped,
      visible,
    };
  });
}

/** Half-bond sticks: from each atom's centre to the bond midpoint, in that atom's colour. */
function collectSticks(
  scene: Scene,
  camera: PerspectiveCamera,
  balls: readonly ProjectedBall[],
  settings: RenderSettings,
): DrawItem[] {
  const items: DrawItem[] = [];
  const { widthPx: w, heightPx: h } = camera;
  for (const bond of scene.bonds) {
    const ends = [bond.a, bond.b] as const;
    const pa = scene.atoms[bond.a]!.position;
    const pb = scene.atoms[bond.b]!.position;
    const mid = midpoint(pa, pb);
    const m = projectToPixels(camera, mid);
    if (m.clipped) continue;
    for (const end of ends) {
      const ball = balls[end]!;
      if (ball.clipped) continue;
      const own = end === bond.a ? pa : pb;
      // The half's depth and width are taken half-way along it: a half that leaves its ball toward the
      // viewer sorts after the ball, one that leaves away from the viewer sorts before it.
      const quarter = midpoint(own, mid);
      const q = projectToPixels(camera, quarter);
      const widthPx = 2 * apparentRadiusPx(camera, toCameraSpace(camera, quarter), settings.stickRadiusA);
      if (q.clipped || !Number.isFinite(widthPx)) continue;
      const half = widthPx / 2;
      if (Math.max(ball.xPx, m.xPx) + half < 0 || Math.min(ball.xPx, m.xPx) - half > w) continue;
      if (Math.max(ball.yPx, m.yPx) + half < 0 || Math.min(ball.yPx, m.yPx) - half > h) continue;
      items.push({
        kind: "stick",
        depthA: q.depthA,
        x1: ball.xPx,
        y1: ball.yPx,
        x2: m.xPx,
        y2: m.yPx,
        widthPx,
        color: ball.color,
      });
    }
  }
  return items;
}

function gradientDefs(colors: readonly string[]): string {
  return colors
    .map(
      (c, i) =>
        `<radialGradient id="b${i}" cx="0.5" cy="0.5" r="0.5" fx="${BALL_HIGHLIGHT_FOCUS.fx}" fy="${BALL_HIGHLIGHT_FOCUS.fy}">` +
        `<stop offset="0" stop-color="${lightenHex(c, BALL_HIGHLIGHT_LIGHTEN)}"/>` +
        `<stop offset="0.45" stop-color="${c}"/>` +
        `<stop offset="1" stop-color="${darkenHex(c, BALL_EDGE_DARKEN)}"/>` +
        `</radialGradient>`,
    )
    .join("");
}

interface StickTints {
  body: string;
  highlight: string;
}

type Fmt = (n: number) => string;

function stickSvg(item: Extract<DrawItem, { kind: "stick" }>, tints: StickTints, fmt: Fmt): string {
  const dx = item.x2 - item.x1;
  const dy = item.y2 - item.y1;
  const len = Math.hypot(dx, dy);
  const body =
    `<line x1="${fmt(item.x1)}" y1="${fmt(item.y1)}" x2="${fmt(item.x2)}" y2="${fmt(item.y2)}" ` +
    `stroke="${tints.body}" stroke-width="${fmt(item.widthPx)}"/>`;
  if (len < 1e-6) return body;
  // Unit normal on the side facing the upper-left light.
  let nx = -dy / len;
  let ny = dx / len;
  if (nx + ny > 0) {
    nx = -nx;
    ny = -ny;
  }
  const off = item.widthPx * STICK_HIGHLIGHT_OFFSET_FRACTION;
  return (
    body +
    `<line x1="${fmt(item.x1 + nx * off)}" y1="${fmt(item.y1 + ny * off)}" x2="${fmt(item.x2 + nx * off)}" y2="${fmt(item.y2 + ny * off)}" ` +
    `stroke="${tints.highlight}" stroke-width="${fmt(item.widthPx * STICK_HIGHLIGHT_WIDTH_FRACTION)}"/>`
  );
}

/** Residue centroid (scene frame) of the given atoms. */
function centroidOfAtoms(scene: Scene, members: readonly number[]): Vec3 {
  const c: [number, number, number] = [0, 0, 0];
  for (const k of members) {
    const p = scene.atoms[k]!.position;
    c[0] += p[0] / members.length;
    c[1] += p[1] / members.length;
    c[2] += p[2] / members.length;
  }
  return c;
}

/**
 * The atom a residue label hangs on in this image: the remembered atom if still in view, else the
 * member nearest the residue's centroid that no nearer ball hides, or null when every member is hidden
 * (the residue is not seen, so not labelled). Without a member list, the scene's fixed anchor.
 */
function residueAnchorOf(
  scene: Scene,
  label: SceneResidueLabel,
  balls: readonly ProjectedBall[],
  hidden: readonly boolean[],
  remembered?: number,
): number | null {
  if (!label.atomIndices || label.atomIndices.length === 0)
    return balls[label.anchorAtomIndex]!.visible ? label.anchorAtomIndex : null;
  // The atom it hung on in an earlier image that looks the same way, while still in view: the label keeps its place.
  if (remembered !== undefined && label.atomIndices.includes(remembered) && !hidden[remembered]) return remembered;
  const centre = centroidOfAtoms(scene, label.atomIndices);
  let best: number | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of label.atomIndices) {
    if (hidden[k]) continue;
    const p = scene.atoms[k]!.position;
    const d = (p[0] - centre[0]) ** 2 + (p[1] - centre[1]) ** 2 + (p[2] - centre[2]) ** 2;
    if (d < bestD || (d === bestD && best !== null && k < best)) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/**
 * Label requests in placement tiers: (0) atom labels the item's earlier images have shown fewer than
 * `residueLabelMinViews` times; (1) contact-shell residue labels short of that, with extra rings; (2)
 * the short atom labels of tier 0 that found no place, again with extra rings; (3) short residue-atom
 * labels, with extra rings; (4) the other atom labels; (5) the other residue-atom labels; (6) the other
 * contact-shell residues; (7) the remaining residues. Within a tier ligand atoms before residue atoms
 * (short residue atoms: least shown first), nearest first. Nothing here reads an answer: the order depends on the structure, the view and the
 * earlier views only.
 */
function labelRequests(
  scene: Scene,
  balls: readonly ProjectedBall[],
  settings: RenderSettings,
  options: RenderSvgOptions,
): LabelRequest[] {
  const { labelOffsets: offsets, labelCoverage: coverage, labelChances: chances } = options;
  const scale = Math.min(settings.widthPx, settings.heightPx) / LABEL_REFERENCE_SIZE_PX;
  const hidden = findHiddenAtoms(balls);
  const short = (key: string) => (coverage?.get(key) ?? 0) < settings.residueLabelMinViews;
  const required = scene.atomLabelsRequired === true;

  interface Candidate {
    tier: number;
    /** Order within the tier before depth: 0 for ligand atoms, 1 for other atoms; residue atoms: views shown so far. */
    ligandFirst: number;
    depthA: number;
    order: number;
    request: LabelRequest;
  }
  const candidates: Candidate[] = [];
  const add = (
    tier: number,
    ligandFirst: number,
    atomIndex: number,
    order: number,
    key: string,
    text: string,
    kind: LabelKind,
    fontSizePx: number,
    extraRings: number,
  ) => {
    const ball = balls[atomIndex]!;
    const fixedOffset = offsets?.get(key);
    candidates.push({
      tier,
      ligandFirst,
      depthA: ball.depthA,
      order,
      request: {
        key,
        anchorAtomIndex: atomIndex,
        text,
        anchorXPx: ball.xPx,
        anchorYPx: ball.yPx,
        anchorRadiusPx: ball.radiusPx,
        fontSizePx,
        kind,
        tier,
        ...(fixedOffset ? { fixedOffset } : {}),
        ...(required && kind === "atom" ? { required } : {}),
        ...(extraRings > 0 ? { extraRings } : {}),
      },
    });
  };
  if (settings.showLigandLabels) {
    const fontSizePx = settings.labelFontSizePx * scale;
    const residueAtomFontSizePx = settings.residueAtomLabelFontSizePx * scale;
    scene.atoms.forEach((atom, index) => {
      if (atom.label === undefined || atom.label.length === 0 || !balls[index]!.visible) return;
      const key = `a${index}`;
      if (atom.labelKind === "residue-atom") {
        // A residue atom hidden behind a nearer ball gets no label here: it would name the ball in front.
        if (hidden[index]) return;
        // Least-shown first (an atom no earlier image could name goes before one named once), then the
        // atom that the fewest images of the item show.
        const rank = (coverage?.get(key) ?? 0) * RANK_PER_VIEW + Math.min(chances?.get(key) ?? 0, RANK_PER_VIEW - 1);
        if (short(key))
          add(3, rank, index, index, key, atom.label, "residue-atom", residueAtomFontSizePx, SHORT_LABEL_EXTRA_RINGS);
        else add(5, 0, index, index, key, atom.label, "residue-atom", residueAtomFontSizePx, 0);
        return;
      }
      const ligandFirst = atom.role === "ligand" ? 0 : 1;
      if (short(key)) {
        add(0, ligandFirst, index, index, key, atom.label, "atom", fontSizePx, 0);
        add(2, ligandFirst, index, index, key, atom.label, "atom", fontSizePx, SHORT_LABEL_EXTRA_RINGS);
      } else add(4, ligandFirst, index, index, key, atom.label, "atom", fontSizePx, 0);
    });
  }
  if (settings.showResidueLabels) {
    const fontSizePx = settings.residueLabelFontSizePx * scale;
    scene.residueLabels.forEach((label, index) => {
      const key = `r${index}`;
      const anchor =
        label.text.length > 0 ? residueAnchorOf(scene, label, balls, hidden, offsets?.get(key)?.anchorAtomIndex) : null;
      if (anchor === null) return;
      const order = scene.atoms.length + index;
      if (label.contact !== true) add(7, 0, anchor, order, key, label.text, "residue", fontSizePx, 0);
      else if (short(key)) add(1, 0, anchor, order, key, label.text, "residue", fontSizePx, SHORT_LABEL_EXTRA_RINGS);
      else add(6, 0, anchor, order, key, label.text, "residue", fontSizePx, 0);
    });
  }
  candidates.sort(
    (a, b) => a.tier - b.tier || a.ligandFirst - b.ligandFirst || a.depthA - b.depthA || a.order - b.order,
  );
  return candidates.map((c) => c.request);
}

function labelGroupSvg(
  labels: readonly PlacedLabel[],
  fontSizePx: number,
  color: string,
  settings: RenderSettings,
  fmt: Fmt,
): string {
  if (labels.length === 0) return "";
  const halo = fontSizePx * settings.labelHaloFraction;
  const texts = labels
    .map((l) => `<text x="${fmt(l.xPx)}" y="${fmt(l.baselineYPx)}">${escapeXml(l.text)}</text>`)
    .join("");
  return (
    `<g font-family="${escapeXml(settings.labelFontFamily)}, sans-serif" font-weight="bold" font-size="${fmt(fontSizePx)}" ` +
    `text-anchor="middle" fill="${color}" stroke="${settings.labelHaloColor}" stroke-width="${fmt(halo)}" ` +
    `stroke-linejoin="round" paint-order="stroke">${texts}</g>`
  );
}

/**
 * Residue-atom labels in their residue's carbon colour (one group per colour, in a fixed order), so an
 * "OD1" reads as part of the residue drawn in that colour and apart from the ligand's white atom names.
 */
function residueAtomLabelsSvg(
  scene: Scene,
  placed: readonly PlacedLabel[],
  fontSizePx: number,
  settings: RenderSettings,
  fmt: Fmt,
): string {
  const byColor = new Map<string, PlacedLabel[]>();
  for (const label of placed) {
    if (label.kind !== "residue-atom" || label.anchorAtomIndex === undefined) continue;
    const atom = scene.atoms[label.anchorAtomIndex]!;
    const color = atomColorOf({ element: "C", role: atom.role, residueIndex: atom.residueIndex }, settings.colors);
    const list = byColor.get(color);
    if (list) list.push(label);
    else byColor.set(color, [label]);
  }
  return [...byColor.keys()]
    .sort()
    .map((color) => labelGroupSvg(byColor.get(color)!, fontSizePx, color, settings, fmt))
    .join("");
}

/**
 * Renders a scene to SVG and reports what was drawn (culled atoms, placed and skipped labels).
 * Throws an Error naming the bad fields if the scene is malformed (see `validateScene`).
 */
export function renderSvgWithStats(
  scene: Scene,
  settings: RenderSettings,
  options: RenderSvgOptions = {},
): RenderSvgResult {
  const problems = validateScene(scene);
  if (problems.length > 0) throw new Error(`renderSvg: invalid scene: ${problems.join("; ")}`);
  const { widthPx: w, heightPx: h } = settings;
  const camera: PerspectiveCamera = { ...scene.camera, widthPx: w, heightPx: h };
  const fmt = pixelFormatter(svgNumberDecimals(settings));

  const balls = projectBalls(scene, camera, settings);
  const items: DrawItem[] = [];
  balls.forEach((ball, atom) => {
    if (ball.visible) items.push({ kind: "ball", depthA: ball.depthA, atom });
  });
  const sticks = collectSticks(scene, camera, balls, settings);
  items.push(...sticks);
  // Far first; Array.prototype.sort is stable, so ties keep the deterministic insertion order.
  items.sort((a, b) => b.depthA - a.depthA);

  const usedColors = [...new Set(balls.filter((b) => b.visible).map((b) => b.color))].sort();
  const gradientIndex = new Map(usedColors.map((c, i) => [c, i]));

  const tintCache = new Map<string, StickTints>();
  const tintsOf = (color: string): StickTints => {
    let tints = tintCache.get(color);
    if (!tints) {
      tints = { body: darkenHex(color, STICK_BODY_DARKEN), highlight: lightenHex(color, STICK_HIGHLIGHT_LIGHTEN) };
      tintCache.set(color, tints);
    }
    return tints;
  };
  const body = items
    .map((item) => {
      if (item.kind === "stick") return stickSvg(item, tintsOf(item.color), fmt);
      const ball = balls[item.atom]!;
      return `<circle cx="${fmt(ball.xPx)}" cy="${fmt(ball.yPx)}" r="${fmt(ball.radiusPx)}" fill="url(#b${gradientIndex.get(ball.color)})"/>`;
    })
    .join("");

  const requests = labelRequests(scene, balls, settings, options);
  const haloWidthPx = Math.max(...requests.map((r) => r.fontSizePx), 0) * settings.labelHaloFraction;
  const obstacles: LabelObstacle[] = balls
    .filter((b) => b.visible)
    .map((b) => ({ xPx: b.xPx, yPx: b.yPx, radiusPx: b.radiusPx }));
  const { placed, skipped } = placeLabels(requests, { widthPx: w, heightPx: h, haloWidthPx, obstacles });
  if (options.labelOffsets) {
    for (const label of placed) {
      if (label.key !== undefined && !options.labelOffsets.has(label.key) && !label.forced) {
        options.labelOffsets.set(label.key, { ...label.offset, rank: options.labelOffsets.size });
      }
    }
  }
  if (options.labelCoverage) {
    for (const label of placed)
      if (label.key !== undefined)
        options.labelCoverage.set(label.key, (options.labelCoverage.get(label.key) ?? 0) + 1);
  }
  const scale = Math.min(w, h) / LABEL_REFERENCE_SIZE_PX;
  const labels =
    labelGroupSvg(
      placed.filter((l) => l.kind === "residue"),
      settings.residueLabelFontSizePx * scale,
      settings.residueLabelColor,
      settings,
      fmt,
    ) +
    labelGroupSvg(
      placed.filter((l) => l.kind === "atom"),
      settings.labelFontSizePx * scale,
      settings.labelColor,
      settings,
      fmt,
    ) +
    residueAtomLabelsSvg(scene, placed, settings.residueAtomLabelFontSizePx * scale, settings, fmt);

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${gradientDefs(usedColors)}</defs>` +
    `<rect width="${w}" height="${h}" fill="${settings.backgroundColor}"/>` +
    `<g stroke-linecap="butt">${body}</g>` +
    labels +
    `</svg>\n`;

  const atomsDrawn = balls.filter((b) => b.visible).length;
  return {
    svg,
    stats: {
      atomsDrawn,
      atomsCulled: balls.length - atomsDrawn,
      halfBondsDrawn: sticks.length,
      labelsPlaced: placed,
      labelsSkipped: skipped.map((i) => requests[i]!.text),
    },
  };
}

/** Renders a scene to a standalone SVG document (see `renderSvgWithStats`). */
export function renderSvg(scene: Scene, settings: RenderSettings, options: RenderSvgOptions = {}): string {
  return renderSvgWithStats(scene, settings, options).svg;
}
