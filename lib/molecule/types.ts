/**
 * Core molecular data types. Structures are plain JSON-serialisable data so they can cross
 * server/client boundaries; positions live on the atom records (float64, no rounding).
 */
import type { Vec3 } from "./geometry/vec3";

export type StructureFormat = "pdb" | "sdf" | "mol2";

export interface Atom {
  /** Serial number from the file (PDB columns 7–11; 1-based atom index for SDF/MOL2). */
  serial: number;
  /** Atom name: PDB/CCD name (e.g. "NH2", "O1B"), MOL2 name, or generated for SDF (element + count). */
  name: string;
  /** Element symbol, capitalised as in the periodic table ("C", "Fe"); deuterium/tritium become "H". */
  element: string;
  resName: string;
  /** Chain identifier; "" when the file has none. */
  chain: string;
  resSeq: number;
  /** Insertion code; "" when none. */
  iCode: string;
  /** Alternate location indicator of the kept conformer; "" when none. */
  altLoc: string;
  occupancy: number;
  tempFactor: number;
  /** HETATM record (PDB) or a small molecule from SDF/MOL2. */
  hetero: boolean;
  formalCharge: number;
  x: number;
  y: number;
  z: number;
}

/** Bond order; 1.5 marks an aromatic bond (MDL type 4, Tripos "ar"). */
export type BondOrder = 1 | 1.5 | 2 | 3;

/** A bond between two atoms, by index into the structure's `atoms` array (a < b). */
export interface Bond {
  a: number;
  b: number;
  order: BondOrder;
}

export interface Structure {
  fileName: string;
  format: StructureFormat;
  title: string;
  atoms: Atom[];
  /** Bonds stated by the file (SDF/MOL2). PDB files give none here; use bond perception. */
  bonds: Bond[];
  /** True when `bonds` carries real bond orders (SDF/MOL2), false for perceived or absent bonds. */
  hasBondOrders: boolean;
  /** Things the parser did on purpose that lose information (dropped alternate locations, extra models). */
  notes: string[];
}

/** Identity of a residue: formatted "RES:CHAIN:NUM", NUM including any insertion code ("GLY:A:27A"). */
export interface ResidueKey {
  resName: string;
  chain: string;
  resSeq: number;
  iCode: string;
}

/** Reference to one atom as used in H-bond records and answers. */
export interface AtomRef {
  resName: string;
  chain: string;
  resSeq: number;
  iCode: string;
  name: string;
  element: string;
  serial: number;
}

export function positionOf(atom: Atom): Vec3 {
  return [atom.x, atom.y, atom.z];
}

export function positionsOf(atoms: readonly Atom[]): Vec3[] {
  return atoms.map(positionOf);
}

export function toAtomRef(atom: Atom): AtomRef {
  return {
    resName: atom.resName,
    chain: atom.chain,
    resSeq: atom.resSeq,
    iCode: atom.iCode,
    name: atom.name,
    element: atom.element,
    serial: atom.serial,
  };
}

/**
 * One residue as a Map/Set key: chain, number, insertion code and name joined by NUL (a character no
 * parsed field holds, so no two residues share a key). In-memory only: never stored or shown.
 */
export function residueKeyText(r: Pick<ResidueKey, "chain" | "resSeq" | "iCode" | "resName">): string {
  return `${r.chain}\u0000${r.resSeq}\u0000${r.iCode}\u0000${r.resName}`;
}

export function residueKeyOf(atom: Pick<Atom, "resName" | "chain" | "resSeq" | "iCode">): ResidueKey {
  return { resName: atom.resName, chain: atom.chain, resSeq: atom.resSeq, iCode: atom.iCode };
}

/** "RES:CHAIN:NUM" with the insertion code appended to NUM ("ARG:A:45", "GLY:B:27A", "HOH::-3"). */
export function formatResidueId(key: ResidueKey): string {
  return `${key.resName}:${key.chain}:${key.resSeq}${key.iCode}`;
}

/** Residue ids from user input are validated here: "RES:CHAIN:NUM[iCode]" with an integer NUM. */
export type ParseResidueIdResult = { ok: true; key: ResidueKey } | { ok: false; reason: string };

const RESIDUE_ID_PATTERN = /^([A-Za-z0-9_+-]{1,4}):([^:\s]?):(-?\d+)([A-Za-z]?)$/;

export function parseResidueId(text: string): ParseResidueIdResult {
  const m = RESIDUE_ID_PATTERN.exec(text.trim());
  if (!m) {
    return {
      ok: false,
      reason: `residue id "${text}" is not RES:CHAIN:NUM (e.g. "NDP:A:701", "GLY:B:27A", "LIG::1")`,
    };
  }
  return { ok: true, key: { resName: m[1]!.toUpperCase(), chain: m[2]!, resSeq: Number(m[3]), iCode: m[4]! } };
}

export function isSameResidue(a: ResidueKey, b: ResidueKey): boolean {
  return a.resSeq === b.resSeq && a.chain === b.chain && a.iCode === b.iCode && a.resName === b.resName;
}
