/**
 * PDB reader: ATOM/HETATM fixed columns (wwPDB format v3.3, "Coordinate section"), first model only,
 * one conformer per residue when alternate locations are present.
 */
import type { Atom, Structure } from "../types";
import { normalizeElementSymbol } from "../chemistry/elements";
import {
  type ParseResult,
  ParseFailure,
  parseStrictFloat,
  parseStrictInt,
  runParser,
  splitLines,
} from "./parse-result";

/**
 * Record names of wwPDB format v3.3 plus a few long-standing extras (USER, SIGATM, old HYDBND...).
 * Any other non-blank line is an error: a coordinate line with a damaged record name ("AT0M")
 * would otherwise be skipped silently.
 */
const KNOWN_RECORDS: ReadonlySet<string> = new Set([
  "HEADER",
  "OBSLTE",
  "TITLE",
  "SPLIT",
  "CAVEAT",
  "COMPND",
  "SOURCE",
  "KEYWDS",
  "EXPDTA",
  "NUMMDL",
  "MDLTYP",
  "AUTHOR",
  "REVDAT",
  "SPRSDE",
  "JRNL",
  "REMARK",
  "DBREF",
  "DBREF1",
  "DBREF2",
  "SEQADV",
  "SEQRES",
  "MODRES",
  "HET",
  "HETNAM",
  "HETSYN",
  "FORMUL",
  "HELIX",
  "SHEET",
  "TURN",
  "SSBOND",
  "LINK",
  "LINKR",
  "CISPEP",
  "SITE",
  "CRYST1",
  "ORIGX1",
  "ORIGX2",
  "ORIGX3",
  "SCALE1",
  "SCALE2",
  "SCALE3",
  "MTRIX1",
  "MTRIX2",
  "MTRIX3",
  "TVECT",
  "MODEL",
  "ATOM",
  "ANISOU",
  "SIGATM",
  "SIGUIJ",
  "TER",
  "HETATM",
  "ENDMDL",
  "CONECT",
  "MASTER",
  "END",
  "USER",
  "HYDBND",
  "SLTBRG",
  "FTNOTE",
]);

/** A coordinate record must reach the end of the z field (column 54). */
const MIN_COORDINATE_RECORD_LENGTH = 54;

interface Field {
  name: string;
  start: number; // 1-based first column
  end: number; // 1-based last column, inclusive
}

const SERIAL: Field = { name: "atom serial number (columns 7-11)", start: 7, end: 11 };
const RES_SEQ: Field = { name: "residue sequence number (columns 23-26)", start: 23, end: 26 };
const X: Field = { name: "x coordinate (columns 31-38)", start: 31, end: 38 };
const Y: Field = { name: "y coordinate (columns 39-46)", start: 39, end: 46 };
const Z: Field = { name: "z coordinate (columns 47-54)", start: 47, end: 54 };
const OCCUPANCY: Field = { name: "occupancy (columns 55-60)", start: 55, end: 60 };
const TEMP_FACTOR: Field = { name: "temperature factor (columns 61-66)", start: 61, end: 66 };
const ELEMENT: Field = { name: "element symbol (columns 77-78)", start: 77, end: 78 };
const CHARGE: Field = { name: "charge (columns 79-80)", start: 79, end: 80 };
const NAME: Field = { name: "atom name (columns 13-16)", start: 13, end: 16 };

function columns(line: string, field: Field): string {
  return line.slice(field.start - 1, field.end);
}

/**
 * Hybrid-36 (the PDB's overflow encoding for serials > 99999 and residue numbers > 9999):
 * "A0000" = 100000 for width 5. Returns null for anything else.
 */
export function decodeHybrid36(text: string, width: number): number | null {
  const t = text.trim();
  if (t.length !== width) return null;
  if (/^[A-Z][0-9A-Z]*$/.test(t)) return parseInt(t, 36) - 10 * 36 ** (width - 1) + 10 ** width;
  if (/^[a-z][0-9a-z]*$/.test(t)) return parseInt(t, 36) + 16 * 36 ** (width - 1) + 10 ** width;
  return null;
}

/**
 * Element from the atom name when columns 77–78 are blank (old files). In the PDB convention the
 * element symbol is right-justified in columns 13–14 of the name: " CA " is carbon alpha, "CA  " is
 * calcium. Hydrogens with four-character names ("HD11", "1HB ") start in column 13.
 */
export function inferElementFromAtomName(rawName: string, hetero: boolean): string | null {
  const name = rawName.padEnd(4, " ");
  const c13 = name[0]!;
  const c14 = name[1]!;
  if (c13 === " ") return normalizeElementSymbol(c14);
  if (/[0-9]/.test(c13)) return normalizeElementSymbol(c14);
  const two = normalizeElementSymbol(c13 + c14);
  // Two-letter elements in column 13 only for hetero groups (ions, metals); in ATOM records a name
  // starting in column 13 is a hydrogen such as "HG11" (a standard residue has no "HG" mercury).
  if (two && hetero && /[A-Za-z]/.test(c14)) return two;
  return normalizeElementSymbol(c13);
}

/** "1+", "2-" (also "+1"); 0 for blank; null when malformed. */
function parseCharge(text: string): number | null {
  const t = text.trim();
  if (t === "") return 0;
  const m = /^(\d)([+-])$/.exec(t);
  if (m) return (m[2] === "-" ? -1 : 1) * Number(m[1]);
  const r = /^([+-])(\d)$/.exec(t);
  if (r) return (r[1] === "-" ? -1 : 1) * Number(r[2]);
  return null;
}

interface RawAtom extends Atom {
  lineNo: number;
}

/**
 * Keeps one conformer per residue: the altLoc id with the highest mean occupancy in that residue
 * (ties: the first id seen), plus atoms without an altLoc. An atom name that only exists under other
 * ids keeps its highest-occupancy copy, so no atom disappears.
 */
function selectAlternateLocations(atoms: RawAtom[]): { kept: RawAtom[]; dropped: number } {
  const byResidue = new Map<string, RawAtom[]>();
  for (const a of atoms) {
    if (a.altLoc === "") continue;
    const key = `${a.chain}|${a.resSeq}|${a.iCode}`;
    const list = byResidue.get(key);
    if (list) list.push(a);
    else byResidue.set(key, [a]);
  }
  if (byResidue.size === 0) return { kept: atoms, dropped: 0 };

  const keep = new Set<RawAtom>();
  for (const list of byResidue.values()) {
    const stats = new Map<string, { sum: number; n: number }>();
    for (const a of list) {
      const s = stats.get(a.altLoc) ?? { sum: 0, n: 0 };
      s.sum += a.occupancy;
      s.n += 1;
      stats.set(a.altLoc, s);
    }
    let best = "";
    let bestMean = -Infinity;
    for (const [id, s] of stats) {
      if (s.sum / s.n > bestMean) {
        best = id;
        bestMean = s.sum / s.n;
      }
    }
    const chosenNames = new Set<string>();
    for (const a of list) {
      if (a.altLoc === best) {
        keep.add(a);
        chosenNames.add(a.name);
      }
    }
    const orphans = new Map<string, RawAtom>();
    for (const a of list) {
      if (chosenNames.has(a.name)) continue;
      const current = orphans.get(a.name);
      if (!current || a.occupancy > current.occupancy) orphans.set(a.name, a);
    }
    for (const a of orphans.values()) keep.add(a);
  }
  const kept = atoms.filter((a) => a.altLoc === "" || keep.has(a));
  return { kept, dropped: atoms.length - kept.length };
}

/** Duplicate records named one by one in the note; the rest are counted. */
const DUPLICATES_LISTED = 5;
/** Repeats closer than this to the first record are the same atom written twice (coordinates have 0.001 Å steps). */
const SAME_POSITION_A = 0.01;

/**
 * Drops repeated records of one atom (same chain, residue number, insertion code, residue name, atom name and altLoc)
 * at the first record's position: the first record is kept, as every reader that indexes atoms by name does. Returns
 * the note that names where the repeats are, or null. A repeat elsewhere is refused (`conflict`): which copy is the atom
 * is a guess, and a wrong guess moves the ligand or the pocket.
 */
function dropDuplicateAtoms(
  atoms: RawAtom[],
  fileName: string,
): { kept: RawAtom[]; note: string | null; conflict: { line: number; reason: string } | null } {
  const first = new Map<string, RawAtom>();
  const repeats: { atom: RawAtom; firstLine: number }[] = [];
  const kept: RawAtom[] = [];
  for (const a of atoms) {
    const key = `${a.chain}\u0000${a.resSeq}\u0000${a.iCode}\u0000${a.resName}\u0000${a.name}\u0000${a.altLoc}`;
    const earlier = first.get(key);
    if (earlier) {
      const d = Math.hypot(a.x - earlier.x, a.y - earlier.y, a.z - earlier.z);
      if (d > SAME_POSITION_A)
        return {
          kept: atoms,
          note: null,
          conflict: {
            line: a.lineNo,
            reason: `atom ${a.name}${a.altLoc === "" ? "" : ` altLoc ${a.altLoc}`} of ${a.resName}:${a.chain}:${a.resSeq}${a.iCode} is recorded twice at different positions (lines ${earlier.lineNo} and ${a.lineNo}, ${d.toFixed(2)} Å apart); remove one copy or give them altLoc ids`,
          },
        };
      repeats.push({ atom: a, firstLine: earlier.lineNo });
    } else {
      first.set(key, a);
      kept.push(a);
    }
  }
  if (repeats.length === 0) return { kept: atoms, note: null, conflict: null };
  const listed = repeats
    .slice(0, DUPLICATES_LISTED)
    .map(
      ({ atom: a, firstLine }) =>
        `${fileName}:${a.lineNo}: ${a.resName}:${a.chain}:${a.resSeq}${a.iCode} ${a.name}${a.altLoc === "" ? "" : ` altLoc ${a.altLoc}`} (first at line ${firstLine})`,
    );
  const more = repeats.length > DUPLICATES_LISTED ? `; and ${repeats.length - DUPLICATES_LISTED} more` : "";
  return {
    kept,
    conflict: null,
    note: `dropped ${repeats.length} duplicate atom records, keeping the first record of each atom: ${listed.join("; ")}${more}`,
  };
}

/** Parses PDB text. `fileName` is used in error messages only. */
export function parsePdb(text: string, fileName: string): ParseResult {
  return runParser(() => {
    const fail = (line: number, field: Field | null, reason: string, column?: number): never => {
      throw new ParseFailure({
        fileName,
        line,
        column: column ?? field?.start,
        field: field?.name,
        reason,
      });
    };
    const lines = splitLines(text);
    const raw: RawAtom[] = [];
    let title = "";
    let modelCount = 0;
    let inFirstModel = true;
    let sawEndOfFirstModel = false;

    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const lineNo = i + 1;
      const record = line.slice(0, 6);
      if (record === "MODEL ") {
        modelCount += 1;
        inFirstModel = modelCount === 1;
        continue;
      }
      if (record === "ENDMDL") {
        if (modelCount <= 1) sawEndOfFirstModel = true;
        inFirstModel = false;
        continue;
      }
      if (record.startsWith("HEADER") && title === "") {
        title = line.slice(62, 66).trim() || line.slice(10, 50).trim();
        continue;
      }
      if (record !== "ATOM  " && record !== "HETATM") {
        const name = record.trim();
        if (name !== "" && !KNOWN_RECORDS.has(name)) {
          fail(lineNo, null, `unknown record type "${name}" (columns 1-6)`, 1);
        }
        continue;
      }
      if (!inFirstModel || sawEndOfFirstModel) continue;

      if (line.length < MIN_COORDINATE_RECORD_LENGTH) {
        fail(
          lineNo,
          null,
          `${record.trim()} record is ${line.length} characters long; coordinates need columns 31-54`,
          line.length + 1,
        );
      }
      const hetero = record === "HETATM";
      const serialText = columns(line, SERIAL);
      const serial = parseStrictInt(serialText) ?? decodeHybrid36(serialText, 5);
      if (serial === null) fail(lineNo, SERIAL, `"${serialText.trim()}" is not an integer`);

      const rawName = columns(line, NAME);
      const name = rawName.trim();
      if (name === "") fail(lineNo, NAME, "atom name is blank");
      const altLoc = line.slice(16, 17).trim();
      const resName = line.slice(17, 21).trim();
      if (resName === "") fail(lineNo, null, "residue name is blank", 18);
      const chain = line.slice(21, 22).trim();
      const resSeqText = columns(line, RES_SEQ);
      const resSeq = parseStrictInt(resSeqText) ?? decodeHybrid36(resSeqText, 4);
      if (resSeq === null) fail(lineNo, RES_SEQ, `"${resSeqText.trim()}" is not an integer`);
      const iCode = line.slice(26, 27).trim();

      const coords: number[] = [];
      for (const f of [X, Y, Z]) {
        const v = parseStrictFloat(columns(line, f));
        if (v === null) fail(lineNo, f, `"${columns(line, f).trim()}" is not a number`);
        coords.push(v as number);
      }
      const occText = columns(line, OCCUPANCY);
      let occupancy = 1;
      if (occText.trim() !== "") {
        const v = parseStrictFloat(occText);
        if (v === null) fail(lineNo, OCCUPANCY, `"${occText.trim()}" is not a number`);
        occupancy = v as number;
      }
      const bText = columns(line, TEMP_FACTOR);
      let tempFactor = 0;
      if (bText.trim() !== "") {
        const v = parseStrictFloat(bText);
        if (v === null) fail(lineNo, TEMP_FACTOR, `"${bText.trim()}" is not a number`);
        tempFactor = v as number;
      }
      const elementText = columns(line, ELEMENT).trim();
      let element: string | null;
      if (elementText !== "") {
        element = normalizeElementSymbol(elementText);
        if (element === null) fail(lineNo, ELEMENT, `unknown element "${elementText}"`);
      } else {
        element = inferElementFromAtomName(rawName, hetero);
        if (element === null) {
          fail(lineNo, NAME, `element columns 77-78 are blank and no element can be inferred from atom name "${name}"`);
        }
      }
      const chargeText = columns(line, CHARGE);
      const formalCharge = parseCharge(chargeText);
      if (formalCharge === null) fail(lineNo, CHARGE, `"${chargeText.trim()}" is not a charge such as "1+" or "2-"`);

      raw.push({
        serial: serial as number,
        name,
        element: element as string,
        resName,
        chain,
        resSeq: resSeq as number,
        iCode,
        altLoc,
        occupancy,
        tempFactor,
        hetero,
        formalCharge: formalCharge as number,
        x: coords[0]!,
        y: coords[1]!,
        z: coords[2]!,
        lineNo,
      });
    }

    if (raw.length === 0) {
      fail(0, null, "no ATOM or HETATM records: not a PDB coordinate file, or an empty one");
    }
    const notes: string[] = [];
    if (modelCount > 1) notes.push(`kept model 1 of ${modelCount}`);
    const unique = dropDuplicateAtoms(raw, fileName);
    if (unique.conflict) fail(unique.conflict.line, null, unique.conflict.reason);
    if (unique.note !== null) notes.push(unique.note);
    const { kept, dropped } = selectAlternateLocations(unique.kept);
    if (dropped > 0) notes.push(`dropped ${dropped} atoms of lower-occupancy alternate locations`);

    const atoms: Atom[] = kept.map(({ lineNo: _lineNo, ...atom }) => atom);
    const structure: Structure = { fileName, format: "pdb", title, atoms, bonds: [], hasBondOrders: false, notes };
    return structure;
  });
}
