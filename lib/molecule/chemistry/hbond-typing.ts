/**
 * Hydrogen-bond donor/acceptor typing from heavy atoms.
 *
 * Protein atoms of standard amino acids are typed by residue and atom name (the CCD chemistry of
 * each side chain). Everything else (ligands, cofactors, modified residues) is typed from element,
 * connectivity and hybridisation: bond orders and hydrogen counts when the file gives them
 * (SDF/MOL2, or explicit hydrogens), otherwise from geometry (bond angles and lengths).
 *
 * Only N and O take part. Sulfur, halogens and C–H donors are left out: MiSI's ChimeraX criteria come
 * from Mills & Dean's survey of N/O donors and acceptors, and S/halogen contacts would mostly add
 * weak, disputed bonds.
 *
 * A donor's hydrogens are never read from the file (the prepared complex has none); their possible
 * directions are inferred in `inferHydrogenDirections` from the donor's geometry class:
 * - "sp2": H fixed in the plane of the heavy-atom neighbours (amide/peptide N–H, Arg, Trp, His, NH2
 *   of amides and amidines), or one of the two in-plane positions when only one is occupied (=N–H);
 * - "sp3": H on tetrahedral positions fixed by the heavy neighbours (R₂N–H, R₃N⁺–H);
 * - "rotor": H anywhere on the cone about the single heavy-neighbour bond (O–H, NH₃⁺, NH₂ of amines);
 * - "free": no heavy neighbour (water, ammonia), no angular constraint.
 */
import type { Atom, Bond } from "../types";
import { buildAdjacency } from "./bonds";

export type DonorGeometry = "sp2" | "sp3" | "rotor" | "free";
export type AcceptorGeometry = "sp2-O" | "sp3-O" | "sp2-N" | "sp-N" | "sp3-N" | "free";

export interface PolarType {
  /** Null when the atom cannot donate. `hydrogenCount` is what we believe is attached (≥ 1). */
  donor: { geometry: DonorGeometry; hydrogenCount: number } | null;
  acceptor: { geometry: AcceptorGeometry } | null;
  /** Short reason, e.g. "backbone N-H", "hydroxyl", "pyridine-like N" (for tables and debugging). */
  label: string;
}

// ---------------------------------------------------------------------------------------------
// Protein atoms by residue and atom name.

type Spec = Omit<PolarType, "donor"> & { donor: PolarType["donor"] | "backbone" };

const SP2_O: Spec = { donor: null, acceptor: { geometry: "sp2-O" }, label: "carbonyl/carboxylate O" };
const HYDROXYL: Spec = { donor: { geometry: "rotor", hydrogenCount: 1 }, acceptor: { geometry: "sp3-O" }, label: "hydroxyl" };
const NH_SP2: Spec = { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null, label: "sp2 N-H" };
const NH2_SP2: Spec = { donor: { geometry: "sp2", hydrogenCount: 2 }, acceptor: null, label: "sp2 NH2" };
const HIS_N: Spec = {
  donor: { geometry: "sp2", hydrogenCount: 1 },
  acceptor: { geometry: "sp2-N" },
  label: "histidine N (tautomer unknown: donor or acceptor)",
};
const HIS_N_DONOR: Spec = { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null, label: "histidine N-H" };
const HIS_N_ACCEPTOR: Spec = { donor: null, acceptor: { geometry: "sp2-N" }, label: "histidine N:" };

const BACKBONE: Readonly<Record<string, Spec>> = {
  N: { donor: "backbone", acceptor: null, label: "backbone N-H" },
  O: SP2_O,
  OXT: SP2_O,
};

const SIDE_CHAIN_POLAR: Readonly<Record<string, Readonly<Record<string, Spec>>>> = {
  ARG: { NE: NH_SP2, NH1: NH2_SP2, NH2: NH2_SP2 },
  ASN: { OD1: SP2_O, ND2: NH2_SP2 },
  ASP: { OD1: SP2_O, OD2: SP2_O },
  GLN: { OE1: SP2_O, NE2: NH2_SP2 },
  GLU: { OE1: SP2_O, OE2: SP2_O },
  HIS: { ND1: HIS_N, NE2: HIS_N },
  HID: { ND1: HIS_N_DONOR, NE2: HIS_N_ACCEPTOR },
  HIE: { ND1: HIS_N_ACCEPTOR, NE2: HIS_N_DONOR },
  HIP: { ND1: HIS_N_DONOR, NE2: HIS_N_DONOR },
  LYS: { NZ: { donor: { geometry: "rotor", hydrogenCount: 3 }, acceptor: null, label: "ammonium" } },
  SER: { OG: HYDROXYL },
  THR: { OG1: HYDROXYL },
  TYR: { OH: HYDROXYL },
  TRP: { NE1: NH_SP2 },
  // protonated acids keep acceptor typing on both O plus a rotatable O-H
  ASH: { OD1: SP2_O, OD2: HYDROXYL },
  GLH: { OE1: SP2_O, OE2: HYDROXYL },
};

const TEMPLATE_RESIDUES: ReadonlySet<string> = new Set([
  "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU", "LYS", "MET", "PHE", "PRO",
  "SER", "THR", "TRP", "TYR", "VAL", "HID", "HIE", "HIP", "HSD", "HSE", "HSP", "CYX", "CYM", "ASH", "GLH", "LYN",
]);

const NAME_ALIASES: Readonly<Record<string, string>> = { HSD: "HID", HSE: "HIE", HSP: "HIP", CYX: "CYS", CYM: "CYS", LYN: "LYS" };

function typeByName(atom: Atom, heavyNeighbourCount: number): PolarType | null | undefined {
  if (!TEMPLATE_RESIDUES.has(atom.resName)) return undefined; // not a template residue: use chemistry
  const res = NAME_ALIASES[atom.resName] ?? atom.resName;
  const spec = BACKBONE[atom.name] ?? SIDE_CHAIN_POLAR[res]?.[atom.name];
  if (!spec) return null;
  if (spec.donor !== "backbone") return spec as PolarType;
  // Backbone N: peptide N-H when bonded to CA and the previous C; N-terminal NH3+ otherwise.
  if (heavyNeighbourCount >= 3) return null; // proline in a chain
  if (heavyNeighbourCount === 2) {
    return res === "PRO"
      ? { donor: { geometry: "sp3", hydrogenCount: 2 }, acceptor: null, label: "N-terminal proline NH2+" }
      : { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null, label: "backbone N-H" };
  }
  return { donor: { geometry: "rotor", hydrogenCount: 3 }, acceptor: null, label: "N-terminal NH3+" };
}

// ---------------------------------------------------------------------------------------------
// Everything else: element, connectivity, hybridisation.

/** Geometric thresholds for heavy-atom-only hybridisation (bond lengths from Allen et al. 1987, J. Chem. Soc. Perkin Trans. 2, S1). */
const SP_ANGLE_MIN_DEG = 165; // X–N≡ / =C= are linear
const SP2_ANGLE_MIN_DEG = 115; // sp2 ~120°, sp3 ~109.5°: split between
const PLANAR_ANGLE_SUM_MIN_DEG = 350; // three neighbours: 360° if planar, ~328° if pyramidal
const TRIPLE_BOND_MAX_A = 1.2; // C≡N 1.14 Å
const C_N_CONJUGATED_MAX_A = 1.38; // amide/aniline/amidine C–N 1.33-1.37 Å vs amine C–N 1.47 Å
const C_N_DOUBLE_MAX_A = 1.3; // imine C=N 1.28 Å
const C_O_DOUBLE_MAX_A = 1.3; // C=O 1.21 Å, carboxylate 1.25 Å vs C–OH 1.36-1.43 Å
const C_O_STRETCHED_DOUBLE_MAX_A = 1.42; // see isCarbonylOxygen
const C_C_DOUBLE_MAX_A = 1.42; // C=C 1.34, aromatic 1.39 vs C–C 1.50-1.54 Å

type Hybrid = "sp" | "sp2" | "sp3";

interface Context {
  atoms: readonly Atom[];
  adj: number[][];
  orders: Map<number, number>; // key a*n+b → order
  hasBondOrders: boolean;
  hydrogenCounts: readonly (number | null)[] | null;
}

function bondOrder(ctx: Context, i: number, j: number): number {
  const n = ctx.atoms.length;
  return ctx.orders.get(Math.min(i, j) * n + Math.max(i, j)) ?? 1;
}

function dist(a: Atom, b: Atom): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

function angleDeg(a: Atom, v: Atom, b: Atom): number {
  const ux = a.x - v.x, uy = a.y - v.y, uz = a.z - v.z;
  const wx = b.x - v.x, wy = b.y - v.y, wz = b.z - v.z;
  const c = (ux * wx + uy * wy + uz * wz) / (Math.hypot(ux, uy, uz) * Math.hypot(wx, wy, wz));
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
}

function hybridOf(ctx: Context, i: number): Hybrid {
  const nb = ctx.adj[i]!;
  const atom = ctx.atoms[i]!;
  if (ctx.hasBondOrders) {
    let doubles = 0;
    let multiple = false;
    for (const j of nb) {
      const o = bondOrder(ctx, i, j);
      if (o === 3) return "sp";
      if (o === 2) doubles += 1;
      if (o > 1) multiple = true;
    }
    if (doubles >= 2) return "sp";
    return multiple ? "sp2" : "sp3";
  }
  if (nb.length >= 3) {
    if (nb.length > 3) return "sp3";
    const [a, b, c] = nb.map((j) => ctx.atoms[j]!) as [Atom, Atom, Atom];
    return angleDeg(a, atom, b) + angleDeg(b, atom, c) + angleDeg(a, atom, c) >= PLANAR_ANGLE_SUM_MIN_DEG ? "sp2" : "sp3";
  }
  if (nb.length === 2) {
    const ang = angleDeg(ctx.atoms[nb[0]!]!, atom, ctx.atoms[nb[1]!]!);
    if (ang >= SP_ANGLE_MIN_DEG) return "sp";
    return ang >= SP2_ANGLE_MIN_DEG ? "sp2" : "sp3";
  }
  if (nb.length === 1) {
    const other = ctx.atoms[nb[0]!]!;
    const d = dist(atom, other);
    if (atom.element === "N" && d <= TRIPLE_BOND_MAX_A) return "sp";
    if (atom.element === "O") return d <= C_O_DOUBLE_MAX_A || other.element === "P" || other.element === "S" ? "sp2" : "sp3";
    if (atom.element === "N") return d <= C_N_CONJUGATED_MAX_A ? "sp2" : "sp3";
    if (atom.element === "C") return d <= C_C_DOUBLE_MAX_A ? "sp2" : "sp3";
  }
  return "sp3";
}

/**
 * Terminal O double-bonded to carbon `c`. Without bond orders: a short C–O, or a slightly long one
 * (≤ 1.42 Å, poorly refined ligands such as the flavin of 1aku have 1.35-1.39 Å C=O) on a planar
 * carbon that also carries N or O, i.e. an amide, urea, imide, ester or carboxylate carbon, never a
 * phenol or alcohol carbon.
 */
function isCarbonylOxygen(ctx: Context, o: number, c: number): boolean {
  if (ctx.adj[o]!.length !== 1 || ctx.atoms[c]!.element !== "C") return false;
  if (ctx.hasBondOrders) return bondOrder(ctx, o, c) === 2;
  const d = dist(ctx.atoms[o]!, ctx.atoms[c]!);
  if (d <= C_O_DOUBLE_MAX_A) return true;
  if (d > C_O_STRETCHED_DOUBLE_MAX_A || ctx.adj[c]!.length !== 3 || hybridOf(ctx, c) !== "sp2") return false;
  return ctx.adj[c]!.some((j) => j !== o && (ctx.atoms[j]!.element === "N" || ctx.atoms[j]!.element === "O"));
}

/** Carbon (or S/P) carrying a terminal double-bonded O: the acyl/sulfonyl partner of amides. */
function isCarbonylLike(ctx: Context, i: number): boolean {
  const atom = ctx.atoms[i]!;
  if (atom.element !== "C" && atom.element !== "S" && atom.element !== "P") return false;
  for (const j of ctx.adj[i]!) {
    const o = ctx.atoms[j]!;
    if (o.element !== "O" || ctx.adj[j]!.length !== 1) continue;
    if (atom.element === "C" ? isCarbonylOxygen(ctx, j, i) : !ctx.hasBondOrders || bondOrder(ctx, i, j) === 2) return true;
  }
  return false;
}

/** Size of the smallest ring through atom i (0 if none up to 8 atoms). */
function smallestRing(ctx: Context, i: number): number {
  let best = 0;
  for (const start of ctx.adj[i]!) {
    // BFS from `start` back to i without the direct edge start–i.
    const depth = new Map<number, number>([[start, 1]]);
    let frontier = [start];
    for (let d = 1; d < 8 && frontier.length > 0; d++) {
      const next: number[] = [];
      for (const u of frontier) {
        for (const v of ctx.adj[u]!) {
          if (v === i) {
            if (u !== start && (best === 0 || d + 1 < best)) best = d + 1;
            continue;
          }
          if (!depth.has(v)) {
            depth.set(v, d + 1);
            next.push(v);
          }
        }
      }
      frontier = next;
    }
  }
  return best;
}

/** Hydrogens attached: explicit count, else valence minus bond orders, else null (unknown). */
function hydrogenCountOf(ctx: Context, i: number): number | null {
  const explicit = ctx.hydrogenCounts?.[i];
  if (explicit !== null && explicit !== undefined) return explicit;
  if (!ctx.hasBondOrders) return null;
  const atom = ctx.atoms[i]!;
  const valence = atom.element === "N" ? 3 + atom.formalCharge : atom.element === "O" ? 2 + atom.formalCharge : 0;
  let sum = 0;
  let aromatic = 0;
  for (const j of ctx.adj[i]!) {
    const o = bondOrder(ctx, i, j);
    if (o === 1.5) aromatic += 1;
    sum += o;
  }
  // Aromatic N in a five-membered ring (pyrrole vs pyridine type) cannot be told apart by 1.5 orders.
  if (aromatic >= 2 && atom.element === "N" && ctx.adj[i]!.length === 2 && smallestRing(ctx, i) === 5) return null;
  return Math.max(0, Math.round(valence - sum));
}

function conjugatedNeighbour(ctx: Context, i: number): boolean {
  return ctx.adj[i]!.some((j) => {
    const nbr = ctx.atoms[j]!;
    return (nbr.element === "C" || nbr.element === "N") && hybridOf(ctx, j) !== "sp3";
  });
}

function typeNitrogen(ctx: Context, i: number): PolarType | null {
  const atom = ctx.atoms[i]!;
  const nb = ctx.adj[i]!;
  const h = hydrogenCountOf(ctx, i);
  const hybrid = hybridOf(ctx, i);
  const charged = atom.formalCharge > 0;
  if (nb.length === 0) {
    return { donor: { geometry: "free", hydrogenCount: h ?? 3 }, acceptor: charged ? null : { geometry: "free" }, label: "ammonia/ammonium" };
  }
  if (nb.length >= 4) return null;
  if (hybrid === "sp") return nb.length === 1 ? { donor: null, acceptor: { geometry: "sp-N" }, label: "nitrile N" } : null;
  // Planar N: a multiple bond, an amide/sulfonamide partner, or (with bond orders) conjugation.
  const amideLike = isAmideLike(ctx, i);
  const planar = hybrid === "sp2" || amideLike || (ctx.hasBondOrders && conjugatedNeighbour(ctx, i));

  if (nb.length === 1) {
    const j = nb[0]!;
    const doubleBond = ctx.hasBondOrders ? bondOrder(ctx, i, j) >= 2 : planar && !amideLike && dist(atom, ctx.atoms[j]!) <= C_N_DOUBLE_MAX_A;
    if (doubleBond) {
      const hc = h ?? 1;
      return hc > 0
        ? { donor: { geometry: "sp2", hydrogenCount: hc }, acceptor: charged ? null : { geometry: "sp2-N" }, label: "imine =N-H" }
        : { donor: null, acceptor: { geometry: "sp2-N" }, label: "imine N" };
    }
    if (planar) {
      const hc = h ?? 2;
      return hc > 0 ? { donor: { geometry: "sp2", hydrogenCount: hc }, acceptor: null, label: "planar NH2 (amide, amidine, aniline)" } : null;
    }
    const hc = h ?? 2;
    if (hc === 0) return charged ? null : { donor: null, acceptor: { geometry: "sp3-N" }, label: "amine N" };
    return { donor: { geometry: "rotor", hydrogenCount: hc }, acceptor: charged || hc >= 3 ? null : { geometry: "sp3-N" }, label: "primary amine" };
  }

  if (nb.length === 2) {
    if (h !== null) {
      if (planar) {
        return h > 0
          ? { donor: { geometry: "sp2", hydrogenCount: h }, acceptor: null, label: "sp2 N-H" }
          : { donor: null, acceptor: { geometry: "sp2-N" }, label: "pyridine-like N" };
      }
      return h > 0
        ? { donor: { geometry: "sp3", hydrogenCount: h }, acceptor: charged ? null : { geometry: "sp3-N" }, label: "secondary amine" }
        : { donor: null, acceptor: { geometry: "sp3-N" }, label: "sp3 N" };
    }
    // Heavy atoms only and no bond orders: decide from the surroundings.
    if (!planar) return { donor: { geometry: "sp3", hydrogenCount: 1 }, acceptor: { geometry: "sp3-N" }, label: "secondary amine" };
    const ring = smallestRing(ctx, i);
    if (amideLike) {
      // A six-ring N with one C=O neighbour is N–H in uracil N1 but bare in cytosine N3 or oxidised
      // flavin N1; between two C=O (imide, uracil N3) it is always N–H.
      const carbonyls = nb.filter((j) => isCarbonylLike(ctx, j)).length;
      if (ring === 6 && carbonyls === 1) {
        return { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: { geometry: "sp2-N" }, label: "ring N next to C=O (tautomer unknown)" };
      }
      return { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null, label: "amide/imide N-H" };
    }
    if (ring === 6) return { donor: null, acceptor: { geometry: "sp2-N" }, label: "pyridine-like N" };
    if (ring === 5) return { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: { geometry: "sp2-N" }, label: "azole N (tautomer unknown)" };
    const shortest = Math.min(...nb.map((j) => dist(atom, ctx.atoms[j]!)));
    if (shortest <= C_N_DOUBLE_MAX_A) return { donor: null, acceptor: { geometry: "sp2-N" }, label: "imine N" };
    return { donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null, label: "conjugated N-H" };
  }

  // Three heavy neighbours: a planar N (amide, aniline, aromatic) has no free lone pair; a pyramidal
  // amine N accepts, or donates its one H when protonated.
  if (planar) return null;
  if (h !== null && h > 0) return { donor: { geometry: "sp3", hydrogenCount: h }, acceptor: null, label: "tertiary ammonium" };
  return charged ? null : { donor: null, acceptor: { geometry: "sp3-N" }, label: "tertiary amine" };
}

function isAmideLike(ctx: Context, i: number): boolean {
  return ctx.adj[i]!.some((j) => isCarbonylLike(ctx, j));
}

function typeOxygen(ctx: Context, i: number): PolarType | null {
  const atom = ctx.atoms[i]!;
  const nb = ctx.adj[i]!;
  if (nb.length === 0) return { donor: { geometry: "free", hydrogenCount: 2 }, acceptor: { geometry: "free" }, label: "water" };
  if (nb.length >= 3) return null;
  if (nb.length === 2) return { donor: null, acceptor: { geometry: "sp3-O" }, label: "ether/ester O" };
  const h = hydrogenCountOf(ctx, i);
  const j = nb[0]!;
  const partner = ctx.atoms[j]!;
  let hydroxyl: boolean;
  if (h !== null) hydroxyl = h > 0;
  else if (partner.element === "P" || partner.element === "S") hydroxyl = false; // phosphate/sulfate: deprotonated at pH 7
  else if (partner.element === "C") hydroxyl = !isCarbonylOxygen(ctx, i, j);
  else hydroxyl = hybridOf(ctx, i) === "sp3";
  if (hydroxyl) return { donor: { geometry: "rotor", hydrogenCount: h ?? 1 }, acceptor: { geometry: "sp3-O" }, label: "hydroxyl" };
  return atom.formalCharge > 0 ? null : { donor: null, acceptor: { geometry: "sp2-O" }, label: "carbonyl/carboxylate/phosphate O" };
}

export interface TypePolarAtomsOptions {
  /** Bonds carry real orders (SDF/MOL2); otherwise hybridisation is read from geometry. */
  hasBondOrders: boolean;
  /** Hydrogens per atom from the file before they were dropped (null entries: unknown). */
  hydrogenCounts?: readonly (number | null)[];
  /** Type standard amino acids by residue and atom name (protein side). Default true. */
  useResidueTemplates?: boolean;
  /**
   * Atoms coordinating a metal. A metal-bound N has given its lone pair to the metal (His NE2 on a
   * zinc, the four pyrrole N of a haem) and, for azoles, the metal takes the place of the N–H, so it
   * is neither donor nor acceptor. Metal-bound O keep their roles (a second lone pair remains).
   */
  metalBound?: readonly boolean[];
}

/** Donor/acceptor type of every atom (null: neither). `bonds` must index into `atoms`. */
export function typePolarAtoms(atoms: readonly Atom[], bonds: readonly Bond[], options: TypePolarAtomsOptions): (PolarType | null)[] {
  const n = atoms.length;
  const orders = new Map<number, number>();
  for (const b of bonds) orders.set(b.a * n + b.b, b.order);
  const ctx: Context = {
    atoms,
    adj: buildAdjacency(n, bonds).map((list) => list.filter((j) => atoms[j]!.element !== "H")),
    orders,
    hasBondOrders: options.hasBondOrders,
    hydrogenCounts: options.hydrogenCounts ?? null,
  };
  const useTemplates = options.useResidueTemplates ?? true;
  return atoms.map((atom, i) => {
    if (atom.element !== "N" && atom.element !== "O") return null;
    if (atom.element === "N" && options.metalBound?.[i]) return null;
    if (useTemplates) {
      const byName = typeByName(atom, ctx.adj[i]!.length);
      if (byName !== undefined) return byName;
    }
    return atom.element === "N" ? typeNitrogen(ctx, i) : typeOxygen(ctx, i);
  });
}
