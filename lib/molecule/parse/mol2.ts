/**
 * Tripos MOL2 reader (Tripos "Mol2 File Format" reference): @<TRIPOS>MOLECULE, ATOM, BOND and
 * SUBSTRUCTURE sections. Atom names are kept (they are what MiSI answers name, e.g. "O1B"). Only the
 * first molecule is read. Lone pairs ("LP") are dropped with a note; dummy and query atom types
 * ("Du", "Any", "Hal", "Het", "Hev") are errors because they have no element.
 */
import type { Atom, Bond, BondOrder, Structure } from "../types";
import { normalizeElementSymbol } from "../chemistry/elements";
import {
  type ParseResult,
  ParseFailure,
  parseStrictFloat,
  parseStrictInt,
  runParser,
  splitLines,
} from "./parse-result";
import { DEFAULT_LIGAND_RES_NAME, type SmallMoleculeOptions } from "./sdf";

const TRIPOS_BOND_ORDERS: Readonly<Record<string, BondOrder>> = {
  "1": 1,
  "2": 2,
  "3": 3,
  ar: 1.5,
  // An amide C–N is a single bond whose N is planar; typing reads planarity from the geometry.
  am: 1,
  // "du" (dummy) and "un" (unknown) still connect atoms; treat them as single bonds.
  du: 1,
  un: 1,
};

/** Element from a Tripos atom type: "C.ar" → C, "N.pl3" → N, "Cl" → Cl; null for dummy/query types. */
export function elementFromTriposType(type: string): string | null {
  const base = type.split(".")[0] ?? "";
  if (["Du", "Any", "Hal", "Het", "Hev", "LP"].includes(base)) return null;
  return normalizeElementSymbol(base);
}

/** Residue name from a substructure name such as "GLU1" or "HJX": letters before trailing digits. */
function resNameFromSubstructure(name: string): string {
  const m = /^([A-Za-z][A-Za-z0-9]*?)(-?\d+)?$/.exec(name);
  const base = (m?.[1] ?? name).toUpperCase();
  return base.slice(0, 4) || DEFAULT_LIGAND_RES_NAME;
}

export function parseMol2(text: string, fileName: string, options: SmallMoleculeOptions = {}): ParseResult {
  return runParser(() => {
    const fail = (line: number, field: string | undefined, reason: string): never => {
      throw new ParseFailure({ fileName, line, field, reason });
    };
    const lines = splitLines(text);
    const notes: string[] = [];
    let section = "";
    let moleculeLine = -1;
    let title = "";
    let declaredAtoms: number | null = null;
    let declaredBonds: number | null = null;
    let countsLineNo = 0;
    let moleculeCount = 0;
    const atoms: Atom[] = [];
    const indexById = new Map<number, number>();
    const bondRows: { a: number; b: number; type: string; lineNo: number }[] = [];
    const chainBySubstId = new Map<number, string>();
    let lonePairs = 0;
    const lonePairIds = new Set<number>();

    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const lineNo = i + 1;
      const trimmed = line.trim();
      if (trimmed.startsWith("@<TRIPOS>")) {
        section = trimmed.slice(9).toUpperCase();
        if (section === "MOLECULE") {
          moleculeCount += 1;
          if (moleculeCount > 1) break;
          moleculeLine = i;
        }
        continue;
      }
      if (trimmed === "" || trimmed.startsWith("#")) continue;
      if (moleculeCount === 0)
        fail(lineNo, undefined, `text before the first @<TRIPOS>MOLECULE section: "${trimmed.slice(0, 30)}"`);

      if (section === "MOLECULE") {
        const offset = i - moleculeLine;
        if (offset === 1) title = trimmed;
        else if (offset === 2) {
          const parts = trimmed.split(/\s+/);
          declaredAtoms = parseStrictInt(parts[0] ?? "");
          declaredBonds = parts[1] === undefined ? 0 : parseStrictInt(parts[1]);
          countsLineNo = lineNo;
          if (declaredAtoms === null || declaredBonds === null) {
            fail(lineNo, "MOLECULE counts line", `expected "num_atoms [num_bonds …]", found "${trimmed}"`);
          }
        }
      } else if (section === "ATOM") {
        // atom_id atom_name x y z atom_type [subst_id [subst_name [charge [status_bit]]]]
        const parts = trimmed.split(/\s+/);
        if (parts.length < 6) fail(lineNo, "ATOM line", "expected: atom_id atom_name x y z atom_type …");
        const id = parseStrictInt(parts[0]!);
        if (id === null) fail(lineNo, "atom_id", `"${parts[0]}" is not an integer`);
        if (indexById.has(id as number) || lonePairIds.has(id as number))
          fail(lineNo, "atom_id", `atom id ${id} appears twice`);
        const coords = parts.slice(2, 5).map((t) => parseStrictFloat(t));
        coords.forEach((v, k) => {
          if (v === null) fail(lineNo, `${"xyz"[k]} coordinate`, `"${parts[2 + k]}" is not a number`);
        });
        const type = parts[5]!;
        if (type.split(".")[0] === "LP") {
          lonePairs += 1;
          lonePairIds.add(id as number);
          continue;
        }
        const element = elementFromTriposType(type);
        if (element === null) fail(lineNo, "atom_type", `"${type}" has no element (dummy, query or unknown type)`);
        let resSeq = options.resSeq ?? 1;
        if (parts[6] !== undefined) {
          const substId = parseStrictInt(parts[6]);
          if (substId === null) fail(lineNo, "subst_id", `"${parts[6]}" is not an integer`);
          resSeq = substId as number;
        }
        const resName =
          parts[7] !== undefined && parts[7] !== "****"
            ? resNameFromSubstructure(parts[7])
            : (options.resName ?? DEFAULT_LIGAND_RES_NAME);
        indexById.set(id as number, atoms.length);
        atoms.push({
          serial: id as number,
          name: parts[1]!,
          element: element as string,
          resName: options.resName ?? resName,
          chain: options.chain ?? "",
          resSeq,
          iCode: "",
          altLoc: "",
          occupancy: 1,
          tempFactor: 0,
          hetero: true,
          formalCharge: 0,
          x: coords[0]!,
          y: coords[1]!,
          z: coords[2]!,
        });
      } else if (section === "BOND") {
        // bond_id origin_atom_id target_atom_id bond_type [status_bits]
        const parts = trimmed.split(/\s+/);
        if (parts.length < 4) fail(lineNo, "BOND line", "expected: bond_id origin_atom_id target_atom_id bond_type");
        const a = parseStrictInt(parts[1]!);
        const b = parseStrictInt(parts[2]!);
        if (a === null || b === null) fail(lineNo, "BOND line", "atom ids must be integers");
        bondRows.push({ a: a as number, b: b as number, type: parts[3]!.toLowerCase(), lineNo });
      } else if (section === "SUBSTRUCTURE") {
        // subst_id subst_name root_atom [subst_type [dict_type [chain …]]]
        const parts = trimmed.split(/\s+/);
        const substId = parseStrictInt(parts[0] ?? "");
        if (substId !== null && parts[5] !== undefined && parts[5] !== "****") chainBySubstId.set(substId, parts[5]);
      }
    }

    if (moleculeCount === 0) fail(0, undefined, "no @<TRIPOS>MOLECULE section: not a MOL2 file");
    if (declaredAtoms === null) fail(moleculeLine + 1, "MOLECULE", "section ends before its counts line");
    if (atoms.length + lonePairs !== declaredAtoms) {
      fail(
        countsLineNo,
        "MOLECULE counts line",
        `declares ${declaredAtoms} atoms but the ATOM section has ${atoms.length + lonePairs}`,
      );
    }
    if (bondRows.length !== declaredBonds) {
      fail(
        countsLineNo,
        "MOLECULE counts line",
        `declares ${declaredBonds} bonds but the BOND section has ${bondRows.length}`,
      );
    }
    if (atoms.length === 0) fail(countsLineNo, "MOLECULE counts line", "a molecule needs at least one atom");
    if (lonePairs > 0) notes.push(`dropped ${lonePairs} lone-pair pseudo-atoms`);
    if (moleculeCount > 1) notes.push("read the first molecule; ignored further @<TRIPOS>MOLECULE sections");
    if (!options.chain && chainBySubstId.size > 0) {
      for (const atom of atoms) atom.chain = chainBySubstId.get(atom.resSeq)?.slice(0, 1) ?? "";
    }

    const bonds: Bond[] = [];
    for (const row of bondRows) {
      if (lonePairIds.has(row.a) || lonePairIds.has(row.b)) continue;
      const ia = indexById.get(row.a);
      const ib = indexById.get(row.b);
      if (ia === undefined) fail(row.lineNo, "origin_atom_id", `atom id ${row.a} is not in the ATOM section`);
      if (ib === undefined) fail(row.lineNo, "target_atom_id", `atom id ${row.b} is not in the ATOM section`);
      if (ia === ib) fail(row.lineNo, "BOND line", `atom ${row.a} is bonded to itself`);
      if (row.type === "nc") continue; // "not connected" per the Tripos reference
      const order = TRIPOS_BOND_ORDERS[row.type];
      if (order === undefined)
        fail(row.lineNo, "bond_type", `"${row.type}" is not a Tripos bond type (1, 2, 3, am, ar, du, un, nc)`);
      bonds.push({ a: Math.min(ia!, ib!), b: Math.max(ia!, ib!), order: order as BondOrder });
    }

    const structure: Structure = { fileName, format: "mol2", title, atoms, bonds, hasBondOrders: true, notes };
    return structure;
  });
}
