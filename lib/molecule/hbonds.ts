/**
 * Pocket–ligand hydrogen bonds with the criteria of UCSF ChimeraX `hbonds` (after Mills & Dean,
 * J. Comput.-Aided Mol. Des. 10 (1996) 607), MiSI-Bench's ground truth, written from
 * ../shared/spec/hbond-criteria.md (the tables are facts; the code is ours). By concern:
 *
 * - hbond-tables.ts: every acceptor and donor parameter row (spec §3, §4);
 * - hbond-context.ts: IDATM typing (spec §6; chemistry/idatm.ts), the group of every atom
 *   (hbond-groups.ts: A1–A29, D1–D18 and the generic rules; the first group that matches fixes its test
 *   and row) and the metal screen;
 * - hbond-hydrogens.ts: hydrogens inferred where the heavy atoms fix them (spec §5.5); rotors (O–H,
 *   NH3+, primary amines) have none, so their theta tests pass and distances fall back to D···A;
 * - hbond-geometry.ts: the acceptor and donor tests and the metal veto (spec §5, §7) with ChimeraX's
 *   default relaxation (`relax true`, used by MiSI-Bench): +0.4 Å on every distance limit, −20° on every
 *   angle minimum, +20° on every angle maximum (spec §1.4);
 * - hbond-pair.ts: a donor–acceptor pair is an H-bond when the acceptor test, the donor test and the
 *   metal veto (spec §1.1 step 5) all pass;
 * - this file: the search over pocket–ligand pairs, its order and the T9 answer text.
 *
 * The prepared complex has no hydrogens (dropped, like the paper's PDBbind pockets given to ChimeraX
 * without added H), so every donor uses inferred hydrogens. Only pocket–ligand pairs are examined.
 */
import type { Atom, AtomRef } from "./types";
import { positionOf, residueKeyText, toAtomRef } from "./types";
import type { PreparedComplex } from "./prepare";
import { NUCLEOTIDES, isAminoAcid } from "./chemistry/residues";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import { type Vec3, angleAtDeg, distanceVec } from "./geometry/vec3";
import type { HBondCriteria } from "./hbond-geometry";
import { type FindHBondsInput, describeRole, prepareHBondContext } from "./hbond-context";
import { donorHydrogens } from "./hbond-hydrogens";
import { evaluatePair } from "./hbond-pair";

/** Superset of every candidate search radius of spec §1.3 (3.65 + 0.4 + 1.25 + 0.35 Å). */
const SEARCH_RADIUS_A = 5.7;

export interface HBond {
  donor: AtomRef;
  acceptor: AtomRef;
  proteinAtom: AtomRef;
  ligandAtom: AtomRef;
  /** Which side donates. When both directions pass (e.g. two hydroxyls) the protein is reported as the donor. */
  ligandIsDonor: boolean;
  bothDirections: boolean;
  /** Donor–acceptor heavy-atom distance. */
  distanceA: number;
  /** H···A for the inferred hydrogen with the largest D–H···A angle; null for donors without inferable H (rotors). */
  hydrogenAcceptorA: number | null;
  /** D–H···A at that hydrogen; null without one. */
  donorAngleDeg: number | null;
  /** Smallest X–A···D over the acceptor's heavy neighbours; null for a lone acceptor atom. */
  acceptorAngleDeg: number | null;
  /** IDATM type and donor group ("Npl D13 amide N-H"). */
  donorType: string;
  /** IDATM type and acceptor group ("O2- A3 carboxylate"). */
  acceptorType: string;
  /**
   * Whether the protein-side atom belongs to an amino-acid residue (a polymer residue that is not a
   * nucleotide). Answer keys name amino acids only by default (the paper's answer format starts
   * with the amino-acid type); bonds to cofactors, sulfates or other pocket groups are kept here so
   * a caller can ask for them (`partners: "all-pocket-groups"`).
   */
  proteinIsAminoAcid: boolean;
}

/** Which pocket groups an H-bond list names: amino acids only (default) or every pocket group. */
export type HBondPartners = "amino-acids" | "all-pocket-groups";
export const HBOND_PARTNERS = ["amino-acids", "all-pocket-groups"] as const satisfies readonly HBondPartners[];

/** All pocket–ligand H-bonds, one per (protein atom, ligand atom) pair, sorted (see compareHBonds). */
export function findHBonds(input: FindHBondsInput): HBond[] {
  const ctx = prepareHBondContext(input);
  const isAminoAcidAtom = input.isAminoAcidAtom ?? ((a: Atom) => isAminoAcid(a.resName));
  const P = ctx.pocketCount;
  const pocketPolar = input.pocketAtoms.map((_, i) => i).filter((i) => ctx.donors[i] || ctx.acceptors[i]);
  const grid = createSpatialGrid(
    pocketPolar.map((i) => ctx.atoms[i]!),
    SEARCH_RADIUS_A,
  );
  const out: HBond[] = [];
  for (let l = P; l < ctx.atoms.length; l++) {
    if (!ctx.donors[l] && !ctx.acceptors[l]) continue;
    for (const k of findNeighbours(grid, ctx.atoms[l]!, SEARCH_RADIUS_A)) {
      const p = pocketPolar[k]!;
      const proteinDonates = evaluatePair(ctx, p, l) === "accepted";
      const ligandDonates = evaluatePair(ctx, l, p) === "accepted";
      if (!proteinDonates && !ligandDonates) continue;
      const ligandIsDonor = !proteinDonates;
      const d = ligandIsDonor ? l : p;
      const a = ligandIsDonor ? p : l;
      const D = positionOf(ctx.atoms[d]!);
      const A = positionOf(ctx.atoms[a]!);
      let bestH: Vec3 | null = null;
      for (const h of donorHydrogens(ctx, d)) if (!bestH || angleAtDeg(D, h, A) > angleAtDeg(D, bestH, A)) bestH = h;
      const aNb = ctx.graph.adj[a]!;
      out.push({
        donor: toAtomRef(ctx.atoms[d]!),
        acceptor: toAtomRef(ctx.atoms[a]!),
        proteinAtom: toAtomRef(ctx.atoms[p]!),
        ligandAtom: toAtomRef(ctx.atoms[l]!),
        ligandIsDonor,
        bothDirections: proteinDonates && ligandDonates,
        distanceA: distanceVec(D, A),
        hydrogenAcceptorA: bestH ? distanceVec(bestH, A) : null,
        donorAngleDeg: bestH ? angleAtDeg(D, bestH, A) : null,
        acceptorAngleDeg:
          aNb.length === 0 ? null : Math.min(...aNb.map((x) => angleAtDeg(positionOf(ctx.atoms[x]!), A, D))),
        donorType: describeRole(ctx, d, "donor"),
        acceptorType: describeRole(ctx, a, "acceptor"),
        proteinIsAminoAcid: isAminoAcidAtom(ctx.atoms[p]!),
      });
    }
  }
  return out.sort(compareHBonds);
}

/** Code-point order (not localeCompare, whose order depends on the ICU build). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRefs(a: AtomRef, b: AtomRef): number {
  return (
    compareText(a.chain, b.chain) ||
    a.resSeq - b.resSeq ||
    compareText(a.iCode, b.iCode) ||
    compareText(a.resName, b.resName) ||
    compareText(a.name, b.name) ||
    a.serial - b.serial
  );
}

/** Deterministic order: protein atom (chain, number, insertion code, name), then ligand atom. */
function compareHBonds(a: HBond, b: HBond): number {
  return compareRefs(a.proteinAtom, b.proteinAtom) || compareRefs(a.ligandAtom, b.ligandAtom);
}

/** "ARG 45 NH2 A, O1B" (MiSI T9): residue, number with insertion code, protein atom, chain; ligand atom. */
function formatHBondT9(bond: HBond): string {
  const p = bond.proteinAtom;
  const chain = p.chain === "" ? "" : ` ${p.chain}`;
  return `${p.resName} ${p.resSeq}${p.iCode} ${p.name}${chain}, ${bond.ligandAtom.name}`;
}

/** T9 answer text: unique bonds in the deterministic order, joined with "; ". */
export function formatHBondsT9(bonds: readonly HBond[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const b of [...bonds].sort(compareHBonds)) {
    const t = formatHBondT9(b);
    if (seen.has(t)) continue;
    seen.add(t);
    parts.push(t);
  }
  return parts.join("; ");
}

/** Amino-acid residues of a prepared pocket: polymer residues that are not nucleotides. */
function aminoAcidAtomTest(complex: PreparedComplex): (atom: Atom) => boolean {
  const keys = new Set(
    complex.pocketResidues
      .filter((g) => g.kind === "polymer" && !NUCLEOTIDES.has(g.key.resName))
      .map((g) => residueKeyText(g.key)),
  );
  return (atom) => keys.has(residueKeyText(atom));
}

/** Keeps the bonds an answer key may name under the `partners` rule. */
export function filterHBondPartners(bonds: readonly HBond[], partners: HBondPartners): HBond[] {
  return partners === "all-pocket-groups" ? [...bonds] : bonds.filter((b) => b.proteinIsAminoAcid);
}

/**
 * H-bonds between the pocket and the ligand of a prepared complex. By default only bonds to
 * amino-acid residues (what an answer key names); `partners: "all-pocket-groups"` adds bonds to
 * cofactors, ions' ligands, sulfates and other hetero groups in the pocket.
 */
export function findComplexHBonds(
  complex: PreparedComplex,
  criteria?: Partial<HBondCriteria>,
  partners: HBondPartners = "amino-acids",
): HBond[] {
  const bonds = findHBonds({
    isAminoAcidAtom: aminoAcidAtomTest(complex),
    pocketAtoms: complex.pocketAtoms,
    ligandAtoms: complex.ligand.atoms,
    ligandBonds: complex.ligand.bonds,
    ligandHasBondOrders: complex.ligand.hasBondOrders,
    ligandHydrogenCounts: complex.ligand.hydrogenCounts,
    criteria,
  });
  return filterHBondPartners(bonds, partners);
}
