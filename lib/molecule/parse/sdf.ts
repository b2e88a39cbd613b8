/**
 * MDL molfile / SDF reader, V2000 (fixed columns) and V3000 (keyword lines), after the BIOVIA CTfile
 * Formats specification (2020). Only the first record of a multi-record SDF is read (a ligand file);
 * the number of ignored records is noted.
 *
 * SDF atoms have no names; they are named element + running count per element in file order
 * (C1, C2, O1, …) so that H-bond answers can name ligand atoms.
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

export interface SmallMoleculeOptions {
  /** Residue fields given to every atom (SDF has none; MOL2 substructures override resName/resSeq). */
  resName?: string;
  chain?: string;
  resSeq?: number;
}

export const DEFAULT_LIGAND_RES_NAME = "LIG";

/** V2000 atom-block charge codes (CTfile spec): 1 → +3 … 7 → −3; 4 is a doublet radical, not a charge. */
const V2000_CHARGE_CODES: Readonly<Record<number, number>> = { 0: 0, 1: 3, 2: 2, 3: 1, 4: 0, 5: -1, 6: -2, 7: -3 };

/** MDL bond types 1–3 are orders, 4 is aromatic; 5–8 are query types that a structure file should not use. */
function toBondOrder(code: number): BondOrder | null {
  if (code === 1 || code === 2 || code === 3) return code;
  if (code === 4) return 1.5;
  return null;
}

interface PendingAtom {
  element: string;
  x: number;
  y: number;
  z: number;
  charge: number;
}

function nameAtoms(pending: PendingAtom[], options: SmallMoleculeOptions): Atom[] {
  const counts = new Map<string, number>();
  return pending.map((p, i) => {
    const n = (counts.get(p.element) ?? 0) + 1;
    counts.set(p.element, n);
    return {
      serial: i + 1,
      name: `${p.element.toUpperCase()}${n}`,
      element: p.element,
      resName: options.resName ?? DEFAULT_LIGAND_RES_NAME,
      chain: options.chain ?? "",
      resSeq: options.resSeq ?? 1,
      iCode: "",
      altLoc: "",
      occupancy: 1,
      tempFactor: 0,
      hetero: true,
      formalCharge: p.charge,
      x: p.x,
      y: p.y,
      z: p.z,
    };
  });
}

/** Parses the first molecule of an SDF/MOL file (V2000 or V3000). */
export function parseSdf(text: string, fileName: string, options: SmallMoleculeOptions = {}): ParseResult {
  return runParser(() => {
    const fail = (line: number, field: string | undefined, reason: string, column?: number): never => {
      throw new ParseFailure({ fileName, line, column, field, reason });
    };
    const lines = splitLines(text);
    if (lines.length < 4 || lines.slice(0, 4).every((l) => l.trim() === "")) {
      fail(0, undefined, "file is empty or shorter than a molfile header (3 lines) plus counts line");
    }
    const title = lines[0]!.trim();
    const countsLine = lines[3]!;
    const notes: string[] = [];
    const isV3000 = /V3000/.test(countsLine);
    if (!isV3000 && !/V2000/.test(countsLine) && countsLine.trim() !== "") {
      // Some writers omit the version tag; the spec says V2000 then.
      notes.push("counts line has no V2000/V3000 tag; read as V2000");
    }

    let atoms: Atom[];
    let bonds: Bond[];
    let endLine: number;
    if (isV3000) {
      ({ atoms, bonds, endLine } = parseV3000(lines, fail, options));
    } else {
      ({ atoms, bonds, endLine } = parseV2000(lines, fail, options));
    }

    let extraRecords = 0;
    for (let i = endLine; i < lines.length; i++) {
      if (lines[i]!.startsWith("$$$$") && lines.slice(i + 1).some((l) => l.trim() !== "")) extraRecords += 1;
    }
    if (extraRecords > 0) notes.push(`read the first molecule; ignored ${extraRecords} further SDF record(s)`);

    const structure: Structure = { fileName, format: "sdf", title, atoms, bonds, hasBondOrders: true, notes };
    return structure;
  });
}

type Fail = (line: number, field: string | undefined, reason: string, column?: number) => never;

interface Block {
  atoms: Atom[];
  bonds: Bond[];
  /** 0-based index of the line after "M  END". */
  endLine: number;
}

function parseV2000(lines: string[], fail: Fail, options: SmallMoleculeOptions): Block {
  const countsLine = lines[3]!;
  const nAtoms = parseStrictInt(countsLine.slice(0, 3));
  const nBonds = parseStrictInt(countsLine.slice(3, 6));
  if (nAtoms === null)
    fail(4, "counts line: number of atoms (columns 1-3)", `"${countsLine.slice(0, 3)}" is not an integer`, 1);
  if (nBonds === null)
    fail(4, "counts line: number of bonds (columns 4-6)", `"${countsLine.slice(3, 6)}" is not an integer`, 4);
  const na = nAtoms as number;
  const nb = nBonds as number;
  if (na <= 0) fail(4, "counts line: number of atoms (columns 1-3)", "a molecule needs at least one atom", 1);

  const pending: PendingAtom[] = [];
  for (let k = 0; k < na; k++) {
    const idx = 4 + k;
    const lineNo = idx + 1;
    const line = lines[idx];
    if (line === undefined) fail(lineNo, "atom block", `file ends after ${k} of ${na} atoms`);
    const l = line as string;
    if (l.startsWith("M  END") || l.startsWith("$$$$"))
      fail(lineNo, "atom block", `atom block ends after ${k} of ${na} atoms declared on the counts line`);
    if (l.length < 34) {
      fail(
        lineNo,
        "atom line",
        `expected atom ${k + 1} of ${na} declared on the counts line, found a ${l.length}-character line (atom lines need columns 1-34: x, y, z, symbol)`,
        l.length + 1,
      );
    }
    const coords: number[] = [];
    for (const [start, label] of [
      [0, "x"],
      [10, "y"],
      [20, "z"],
    ] as const) {
      const v = parseStrictFloat(l.slice(start, start + 10));
      if (v === null)
        fail(
          lineNo,
          `${label} coordinate (columns ${start + 1}-${start + 10})`,
          `"${l.slice(start, start + 10).trim()}" is not a number`,
          start + 1,
        );
      coords.push(v as number);
    }
    const symbol = l.slice(31, 34).trim();
    const element = normalizeElementSymbol(symbol);
    if (element === null) fail(lineNo, "atom symbol (columns 32-34)", `unknown element "${symbol}"`, 32);
    let charge = 0;
    const chargeText = l.slice(36, 39);
    if (chargeText.trim() !== "") {
      const code = parseStrictInt(chargeText);
      if (code === null || V2000_CHARGE_CODES[code] === undefined) {
        fail(lineNo, "charge code (columns 37-39)", `"${chargeText.trim()}" is not a charge code 0-7`, 37);
      }
      charge = V2000_CHARGE_CODES[code as number]!;
    }
    pending.push({ element: element as string, x: coords[0]!, y: coords[1]!, z: coords[2]!, charge });
  }

  const bonds: Bond[] = [];
  for (let k = 0; k < nb; k++) {
    const idx = 4 + na + k;
    const lineNo = idx + 1;
    const line = lines[idx];
    if (line === undefined) fail(lineNo, "bond block", `file ends after ${k} of ${nb} bonds`);
    const l = line as string;
    if (l.startsWith("M  ") || l.startsWith("$$$$"))
      fail(lineNo, "bond block", `bond block ends after ${k} of ${nb} bonds declared on the counts line`);
    const a = parseStrictInt(l.slice(0, 3));
    const b = parseStrictInt(l.slice(3, 6));
    const type = parseStrictInt(l.slice(6, 9));
    if (a === null || a < 1 || a > na)
      fail(lineNo, "first atom (columns 1-3)", `"${l.slice(0, 3).trim()}" is not an atom number 1-${na}`, 1);
    if (b === null || b < 1 || b > na)
      fail(lineNo, "second atom (columns 4-6)", `"${l.slice(3, 6).trim()}" is not an atom number 1-${na}`, 4);
    if (a === b) fail(lineNo, "bond line", `atom ${a} is bonded to itself`, 1);
    const order = type === null ? null : toBondOrder(type);
    if (order === null) fail(lineNo, "bond type (columns 7-9)", `"${l.slice(6, 9).trim()}" is not a bond type 1-4`, 7);
    bonds.push({ a: Math.min(a!, b!) - 1, b: Math.max(a!, b!) - 1, order: order as BondOrder });
  }

  // Properties block up to "M  END": charges (M  CHG) replace the atom-block charges (CTfile spec).
  let i = 4 + na + nb;
  let sawChg = false;
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith("M  END")) break;
    if (l.startsWith("$$$$")) fail(i + 1, "properties block", 'record ends without "M  END"');
    if (l.startsWith("M  CHG")) {
      if (!sawChg) for (const p of pending) p.charge = 0;
      sawChg = true;
      const parts = l
        .slice(6)
        .trim()
        .split(/\s+/)
        .map((t) => parseStrictInt(t));
      const n = parts[0];
      if (n === null || n === undefined || parts.length < 1 + 2 * n || parts.some((p) => p === null)) {
        fail(i + 1, "M  CHG", "expected a count followed by that many atom/charge pairs");
      }
      for (let k = 0; k < (n as number); k++) {
        const atomNo = parts[1 + 2 * k]!;
        const target = pending[atomNo - 1];
        if (!target) fail(i + 1, "M  CHG", `atom number ${atomNo} is not 1-${na}`);
        (target as PendingAtom).charge = parts[2 + 2 * k]!;
      }
    }
  }
  if (i >= lines.length) fail(lines.length, "properties block", 'molfile ends without "M  END"');
  return { atoms: nameAtoms(pending, options), bonds, endLine: i + 1 };
}

/** V3000 lines start with "M  V30 "; a trailing "-" continues the line on the next one. */
function readV3000Lines(lines: string[], fail: Fail): { text: string; lineNo: number; endLine: number }[] {
  const out: { text: string; lineNo: number; endLine: number }[] = [];
  let i = 4;
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith("M  END")) return [...out, { text: "END", lineNo: i + 1, endLine: i + 1 }];
    if (l.startsWith("$$$$")) break;
    if (!l.startsWith("M  V30 ")) {
      if (l.trim() === "" || l.startsWith("M  ")) continue;
      fail(i + 1, "V3000 line", `expected "M  V30 …", found "${l.slice(0, 20)}"`, 1);
    }
    const lineNo = i + 1;
    let text = l.slice(7);
    while (text.endsWith("-")) {
      i++;
      const next = lines[i];
      if (next === undefined || !next.startsWith("M  V30 "))
        fail(i + 1, "V3000 line", 'continued line ("-" at end) is not followed by an "M  V30" line');
      text = text.slice(0, -1) + (next as string).slice(7);
    }
    out.push({ text: text.trim(), lineNo, endLine: i + 1 });
  }
  return fail(i + 1, "V3000 block", 'molfile ends without "M  END"');
}

function parseV3000(lines: string[], fail: Fail, options: SmallMoleculeOptions): Block {
  const v30 = readV3000Lines(lines, fail);
  let section: "none" | "ctab" | "atom" | "bond" | "other" = "none";
  let declaredAtoms: number | null = null;
  let declaredBonds: number | null = null;
  const pending: PendingAtom[] = [];
  const indexById = new Map<number, number>();
  const bondRows: { a: number; b: number; type: number; lineNo: number }[] = [];
  let countsLineNo = 0;
  let endLine = lines.length;

  for (const { text, lineNo, endLine: lineEnd } of v30) {
    if (text === "END") {
      endLine = lineEnd;
      break;
    }
    const upper = text.toUpperCase();
    if (upper === "BEGIN CTAB") section = "ctab";
    else if (upper === "END CTAB") section = "none";
    else if (upper === "BEGIN ATOM") section = "atom";
    else if (upper === "BEGIN BOND") section = "bond";
    else if (upper === "END ATOM" || upper === "END BOND") section = "ctab";
    else if (upper.startsWith("BEGIN ")) section = "other";
    else if (upper.startsWith("END ")) section = "ctab";
    else if (upper.startsWith("COUNTS ")) {
      const parts = text.split(/\s+/);
      declaredAtoms = parseStrictInt(parts[1] ?? "");
      declaredBonds = parseStrictInt(parts[2] ?? "");
      countsLineNo = lineNo;
      if (declaredAtoms === null || declaredBonds === null) fail(lineNo, "COUNTS", "expected COUNTS <atoms> <bonds> …");
    } else if (section === "atom") {
      // idx type x y z aamap [KEY=value …]
      const parts = text.split(/\s+/);
      if (parts.length < 6) fail(lineNo, "atom line", "expected: index type x y z aamap");
      const id = parseStrictInt(parts[0]!);
      if (id === null) fail(lineNo, "atom index", `"${parts[0]}" is not an integer`);
      if (indexById.has(id as number)) fail(lineNo, "atom index", `atom index ${id} appears twice`);
      const element = normalizeElementSymbol(parts[1]!);
      if (element === null) fail(lineNo, "atom type", `unknown element "${parts[1]}"`);
      const coords = parts.slice(2, 5).map((t) => parseStrictFloat(t));
      coords.forEach((v, k) => {
        if (v === null) fail(lineNo, `${"xyz"[k]} coordinate`, `"${parts[2 + k]}" is not a number`);
      });
      let charge = 0;
      for (const kv of parts.slice(6)) {
        const m = /^CHG=(.*)$/i.exec(kv);
        if (m) {
          const c = parseStrictInt(m[1]!);
          if (c === null) fail(lineNo, "CHG", `"${m[1]}" is not an integer charge`);
          charge = c as number;
        }
      }
      indexById.set(id as number, pending.length);
      pending.push({ element: element as string, x: coords[0]!, y: coords[1]!, z: coords[2]!, charge });
    } else if (section === "bond") {
      // idx type atom1 atom2 [KEY=value …]
      const parts = text.split(/\s+/);
      if (parts.length < 4) fail(lineNo, "bond line", "expected: index type atom1 atom2");
      const type = parseStrictInt(parts[1]!);
      const a = parseStrictInt(parts[2]!);
      const b = parseStrictInt(parts[3]!);
      if (type === null || a === null || b === null)
        fail(lineNo, "bond line", "bond type and atom indices must be integers");
      bondRows.push({ a: a as number, b: b as number, type: type as number, lineNo });
    }
  }
  if (declaredAtoms === null) fail(0, "COUNTS", 'no "M  V30 COUNTS" line');
  if (pending.length !== declaredAtoms) {
    fail(countsLineNo, "COUNTS", `declares ${declaredAtoms} atoms but the atom block has ${pending.length}`);
  }
  if (bondRows.length !== declaredBonds) {
    fail(countsLineNo, "COUNTS", `declares ${declaredBonds} bonds but the bond block has ${bondRows.length}`);
  }
  if (pending.length === 0) fail(countsLineNo, "COUNTS", "a molecule needs at least one atom");
  const bonds: Bond[] = bondRows.map((row) => {
    const ia = indexById.get(row.a);
    const ib = indexById.get(row.b);
    if (ia === undefined) fail(row.lineNo, "bond atom", `atom index ${row.a} is not in the atom block`);
    if (ib === undefined) fail(row.lineNo, "bond atom", `atom index ${row.b} is not in the atom block`);
    if (ia === ib) fail(row.lineNo, "bond atom", `atom ${row.a} is bonded to itself`);
    const order = toBondOrder(row.type);
    if (order === null) fail(row.lineNo, "bond type", `${row.type} is not a bond type 1-4`);
    return { a: Math.min(ia!, ib!), b: Math.max(ia!, ib!), order: order as BondOrder };
  });
  return { atoms: nameAtoms(pending, options), bonds, endLine };
}
