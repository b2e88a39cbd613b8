/**
 * Typing and classification of pocket + ligand for the H-bond search: IDATM types (spec §6;
 * chemistry/idatm.ts), the acceptor and donor group of every atom (hbond-groups.ts) and the metal
 * screen (spec §1.1 step 3). Atoms [0, pocketCount) are the pocket, the rest the ligand.
 */
import type { Atom, Bond } from "./types";
import { positionOf } from "./types";
import { isMetal, perceiveBonds } from "./chemistry/bonds";
import { assignIdatmTypes, isPlanar } from "./chemistry/idatm";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import { distanceVec } from "./geometry/vec3";
import { DEFAULT_HBOND_CRITERIA, type HBondCriteria } from "./hbond-geometry";
import { type AcceptorSpec, type DonorSpec, classifyAcceptor, classifyDonor } from "./hbond-groups";
import type { TypedAtoms } from "./hbond-hydrogens";
import { covalentRadiusOf } from "./chemistry/elements";
import {
  MAX_COORDINATION_EXCESS_A,
  METAL_COORDINATION_RADIUS_A,
  METAL_COORDINATION_TARGET_A,
  UNLISTED_METAL_LIGAND_ALLOWANCE_A,
} from "./hbond-tables";

/**
 * A planar N this close to a metal is bound to it and carries no hydrogen (a porphyrin N on its iron). Deviation from
 * the spec's donor rule, which looks only at N typed as acceptors: without it the iron-bound pyrrole N of a heme
 * (2q8q NB/ND) are typed as N–H donors to the iron-bound HIS NE2.
 */
const METAL_BOND_A = 2.6;

export interface FindHBondsInput {
  /** Pocket heavy atoms (whole residues). */
  pocketAtoms: readonly Atom[];
  /** Ligand heavy atoms. */
  ligandAtoms: readonly Atom[];
  /** Bonds among ligandAtoms; perceived from distances when empty. */
  ligandBonds?: readonly Bond[];
  /** The ligand bonds carry real orders (SDF/MOL2): ligand atoms are typed from them. */
  ligandHasBondOrders?: boolean;
  /** Hydrogens on each ligand atom in the source file (null: unknown, implicit from valence). */
  ligandHydrogenCounts?: readonly (number | null)[];
  criteria?: Partial<HBondCriteria>;
  /** Whether a pocket atom belongs to an amino acid (default: its residue name is a known amino acid). */
  isAminoAcidAtom?: (atom: Atom) => boolean;
}

export interface HBondContext extends TypedAtoms {
  /** Atoms [0, pocketCount) are the pocket, the rest the ligand. */
  pocketCount: number;
  acceptors: (AcceptorSpec | null)[];
  donors: (DonorSpec | null)[];
  /** Metals within 4 Å of each acceptor (spec §1.1 step 3). */
  metalsOf: number[][];
  /** Metals each N, O or S atom coordinates (within the metal's coordination distance, `metalCoordinationDistance`). */
  coordinatedBy: number[][];
  slop: HBondCriteria;
}

/** Types, groups and metal screen of pocket + ligand (what findHBonds evaluates). */
export function prepareHBondContext(input: FindHBondsInput): HBondContext {
  const criteria: HBondCriteria = { ...DEFAULT_HBOND_CRITERIA, ...input.criteria };
  const pocketCount = input.pocketAtoms.length;
  const atoms = [...input.pocketAtoms, ...input.ligandAtoms];
  const ligandBonds =
    input.ligandBonds && input.ligandBonds.length > 0 ? input.ligandBonds : perceiveBonds(input.ligandAtoms);
  const hasOrders =
    (input.ligandHasBondOrders ?? false) && input.ligandBonds !== undefined && input.ligandBonds.length > 0;
  const bonds: Bond[] = [
    ...perceiveBonds(input.pocketAtoms),
    ...ligandBonds.map((b) => ({ a: b.a + pocketCount, b: b.b + pocketCount, order: b.order })),
  ];
  const graph = assignIdatmTypes({
    atoms,
    bonds,
    bondOrderAtoms: hasOrders ? new Set(input.ligandAtoms.map((_, k) => k + pocketCount)) : undefined,
    hydrogenCounts: [
      ...input.pocketAtoms.map(() => null),
      ...(input.ligandHydrogenCounts ?? input.ligandAtoms.map(() => null)),
    ],
  });
  const acceptors = atoms.map((_, i) => classifyAcceptor(graph, atoms, i));
  const metals = atoms.map((a, i) => (isMetal(a.element) && a.element !== "H" ? i : -1)).filter((i) => i >= 0);
  const metalGrid = createSpatialGrid(
    metals.map((i) => atoms[i]!),
    METAL_COORDINATION_RADIUS_A,
  );
  const metalsOf = atoms.map((a, i) =>
    acceptors[i] && metals.length > 0
      ? findNeighbours(metalGrid, a, METAL_COORDINATION_RADIUS_A)
          .map((k) => metals[k]!)
          .filter((m) => distanceVec(positionOf(atoms[m]!), positionOf(a)) <= METAL_COORDINATION_RADIUS_A)
      : [],
  );
  const boundToMetal = (a: Atom) =>
    metals.some((m) => distanceVec(positionOf(atoms[m]!), positionOf(a)) <= METAL_BOND_A);
  const donors = atoms.map((a, i) => {
    // A metal-coordinated planar N is no donor (spec §4.2, e.g. a His ring N binding zinc); nor is one bound to a metal.
    if (a.element === "N" && isPlanar(graph.types[i]!) && (metalsOf[i]!.length > 0 || boundToMetal(a))) return null;
    return classifyDonor(graph, atoms, i);
  });
  const coordinatedBy = atoms.map((a) =>
    a.element === "N" || a.element === "O" || a.element === "S"
      ? metals.filter(
          (m) => distanceVec(positionOf(atoms[m]!), positionOf(a)) <= metalCoordinationDistance(atoms[m]!.element),
        )
      : [],
  );
  return { atoms, pocketCount, graph, acceptors, donors, metalsOf, coordinatedBy, slop: criteria };
}

/** Longest metal–ligand distance still counted as coordination (hbond-tables.ts METAL_COORDINATION_TARGET_A). */
export function metalCoordinationDistance(element: string): number {
  const target = METAL_COORDINATION_TARGET_A[element];
  return target !== undefined
    ? target + MAX_COORDINATION_EXCESS_A
    : covalentRadiusOf(element) + UNLISTED_METAL_LIGAND_ALLOWANCE_A;
}

/** "Npl D13 amide N-H": IDATM type and group of a donor or acceptor atom. */
export function describeRole(ctx: HBondContext, i: number, role: "donor" | "acceptor"): string {
  const spec = role === "donor" ? ctx.donors[i] : ctx.acceptors[i];
  return `${ctx.graph.types[i]} ${spec ? spec.group : `no ${role} group`}`;
}
