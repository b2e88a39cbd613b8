/**
 * Hydrogen inference of ChimeraX `hbonds` (../shared/spec/hbond-criteria.md §5.5): the prepared complex
 * has no hydrogens, so a donor's hydrogens are placed where its heavy atoms fix them (none for rotors:
 * O–H, NH3+, primary amines), and the tau test's "hydrogen or lone pair" positions and an acceptor's
 * lone pairs are constructed the same way.
 */
import type { Atom } from "./types";
import { positionOf } from "./types";
import { IDATM_TYPES, type TypedGraph, isPlanar } from "./chemistry/idatm";
import { type Vec3, addVec, crossVec, dotVec, lengthVec, normalizeVec, scaleVec, subtractVec } from "./geometry/vec3";

/** What hydrogen inference reads: the atoms and their IDATM-typed bond graph. */
export interface TypedAtoms {
  atoms: readonly Atom[];
  graph: TypedGraph;
}

/** X–H bond length r(X) + r(H) (spec §0): N, O 0.91 Å; S 1.25 Å; P 1.28 Å. */
const hydrogenBondLength = (element: string) => (element === "S" ? 1.25 : element === "P" ? 1.28 : 0.91);

function positionsByGeometry(typed: TypedAtoms, i: number, geometry: number, L: number): Vec3[] {
  const { atoms, graph } = typed;
  const c = positionOf(atoms[i]!);
  const known = graph.adj[i]!.map((j) => positionOf(atoms[j]!));
  if (geometry === 4) return tetrahedralPositions(c, known, L);
  if (geometry === 2) return linearPositions(c, known, L);
  if (geometry !== 3) return [];
  const coplanar: Vec3[] = [];
  for (const j of graph.adj[i]!)
    if (isPlanar(graph.types[j]!)) for (const k of graph.adj[j]!) if (k !== i) coplanar.push(positionOf(atoms[k]!));
  return trigonalPositions(c, known, L, coplanar);
}

const hydrogenCache = new WeakMap<TypedAtoms, Map<number, Vec3[]>>();

/** The donor's hydrogens: inferred where the heavy atoms fix them, none for rotors and lone-pair atoms (spec §5.5). */
export function donorHydrogens(typed: TypedAtoms, i: number): Vec3[] {
  let cache = hydrogenCache.get(typed);
  if (!cache) hydrogenCache.set(typed, (cache = new Map()));
  const hit = cache.get(i);
  if (hit) return hit;
  const info = IDATM_TYPES[typed.graph.types[i]!];
  const k = typed.graph.adj[i]!.length;
  let out: Vec3[] = [];
  if (
    info &&
    k > 0 &&
    k < info.substituents &&
    !(k === 1 && info.geometry === 4) &&
    info.geometry - info.substituents <= 0
  ) {
    out = positionsByGeometry(typed, i, info.geometry, hydrogenBondLength(typed.atoms[i]!.element)).slice(
      0,
      info.substituents - k,
    );
  }
  cache.set(i, out);
  return out;
}

/** "Hydrogen or lone pair" positions of a tau axis atom X plus its other heavy neighbours (spec §5.3 step 3). */
export function tauSubstituents(typed: TypedAtoms, x: number, centre: number): Vec3[] {
  const { atoms, graph } = typed;
  const info = IDATM_TYPES[graph.types[x]!];
  const k = graph.adj[x]!.length;
  const computed =
    info && k > 0 && k < info.geometry && !(k === 1 && info.geometry === 4)
      ? positionsByGeometry(typed, x, info.geometry, hydrogenBondLength(atoms[x]!.element))
      : [];
  return [...computed, ...graph.adj[x]!.filter((j) => j !== centre).map((j) => positionOf(atoms[j]!))];
}

// ---------------------------------------------------------------------------------------------
// Constructions (spec §5.5): hydrogen, "hydrogen or lone pair" and lone-pair positions

/** Reference perpendicular p̂(u): world +Y made perpendicular to u. */
function perpendicular(u: Vec3): Vec3 {
  const y: Vec3 = [0, 1, 0];
  const p = subtractVec(y, scaleVec(u, dotVec(y, u)));
  if (lengthVec(p) < 1e-9) return [0, 0, -Math.sign(u[1])];
  return normalizeVec(p);
}

/** Unit directions of the known substituents, and a way to add a new one (its position is collected at length L). */
function positionBuilder(c: Vec3, known: readonly Vec3[], L: number) {
  const units = known.map((k) => normalizeVec(subtractVec(k, c)));
  const added: Vec3[] = [];
  const push = (u: Vec3) => {
    units.push(u);
    added.push(addVec(c, scaleVec(u, L)));
  };
  return { units, added, push };
}

/** Missing tetrahedral positions around c at length L, from the known substituent positions. */
export function tetrahedralPositions(c: Vec3, known: readonly Vec3[], L: number): Vec3[] {
  const { units, added, push } = positionBuilder(c, known, L);
  if (units.length === 0) push([1, 0, 0]);
  if (units.length === 1) {
    const t = (109.5 * Math.PI) / 180;
    push(normalizeVec(addVec(scaleVec(units[0]!, Math.cos(t)), scaleVec(perpendicular(units[0]!), Math.sin(t)))));
  }
  if (units.length === 2) {
    const b = normalizeVec(scaleVec(addVec(units[0]!, units[1]!), -1));
    const n = normalizeVec(crossVec(units[0]!, units[1]!));
    const h = (54.75 * Math.PI) / 180;
    push(normalizeVec(addVec(scaleVec(b, Math.cos(h)), scaleVec(n, Math.sin(h)))));
  }
  if (units.length === 3) {
    const p = units.map((u) => addVec(c, u));
    let n = normalizeVec(crossVec(subtractVec(p[1]!, p[0]!), subtractVec(p[2]!, p[1]!)));
    if (dotVec(n, subtractVec(c, p[0]!)) < 0) n = scaleVec(n, -1);
    push(n);
  }
  return added;
}

/** Missing trigonal positions around c at length L; `coplanar` are reference points in the plane. */
export function trigonalPositions(c: Vec3, known: readonly Vec3[], L: number, coplanar: readonly Vec3[]): Vec3[] {
  const { units, added, push } = positionBuilder(c, known, L);
  if (units.length === 0) push([1, 0, 0]);
  if (units.length === 1) {
    const u = units[0]!;
    const t = (120 * Math.PI) / 180;
    const along = (w: Vec3): Vec3 => {
      const perp = subtractVec(w, scaleVec(u, dotVec(w, u)));
      const wHat = lengthVec(perp) < 1e-9 ? perpendicular(u) : normalizeVec(perp);
      return normalizeVec(addVec(scaleVec(u, Math.cos(t)), scaleVec(wHat, Math.sin(t))));
    };
    if (coplanar.length === 0) push(along(perpendicular(u)));
    else if (coplanar.length === 1) push(along(subtractVec(coplanar[0]!, c)));
    else
      push(
        normalizeVec(addVec(along(subtractVec(coplanar[0]!, c)), along(scaleVec(subtractVec(coplanar[1]!, c), -1)))),
      );
  }
  if (units.length === 2) push(normalizeVec(scaleVec(addVec(units[0]!, units[1]!), -1)));
  return added;
}

/** Missing linear positions around c at length L. */
function linearPositions(c: Vec3, known: readonly Vec3[], L: number): Vec3[] {
  if (known.length === 0) return [addVec(c, [L, 0, 0]), addVec(c, [-L, 0, 0])];
  if (known.length === 1) return [subtractVec(c, scaleVec(normalizeVec(subtractVec(known[0]!, c)), L))];
  return [];
}

/** Points opposite the tetrahedral lone pairs of an acceptor at a (1 Å, from all of its neighbours). */
export function oppositeLonePairs(a: Vec3, neighbours: readonly Vec3[]): Vec3[] {
  if (neighbours.length >= 4) return [];
  return tetrahedralPositions(a, neighbours, 1).map((l) => subtractVec(a, subtractVec(l, a)));
}
