import { z } from "zod";
import { STANDARD_AMINO_ACIDS } from "@/lib/molecule/chemistry/residues";
import type { ParseResult, TaskScore } from "../types";
import { normalizeAnswerText, quote, splitTokens } from "./text";

/**
 * H-bond lists (T4 residue–ligand, T9 pocket–ligand). A bond is written protein side first, then a
 * comma, then the ligand atom name; bonds are separated by semicolons:
 *   T4: `Yes: ARG NH2, O1B; ARG NE, O2G`      (or `No`)
 *   T9: `TYR 228 OH A, O5; ASP 60B OD1 A, N2` (or `No`)
 * Names are case-insensitive and canonicalised to upper case; this includes chain ids, so a
 * structure whose pocket has two chains differing only in case ('A' and 'a') cannot be scored
 * (generators must refuse such a pocket). An insertion code is written directly after the residue
 * number (`60B`), as in ChimeraX (`:60B`) and PDB columns 23–27; the chain is always the 4th part,
 * so `TYR 228 OH A` (chain A) and `TYR 228A OH A` (insertion code A, chain A) cannot be confused.
 */

/** PDB residue names are at most 3 characters (columns 18–20). */
const RESIDUE_NAME_PATTERN = /^[A-Z0-9]{1,3}$/i;
/**
 * PDB atom names are at most 4 characters; MOL2 names can be a little longer. Primes, double primes
 * and asterisks occur in nucleotide-like ligands (O5', C1*).
 */
const ATOM_NAME_PATTERN = /^[A-Z0-9'"*_]{1,6}$/i;
/** PDB residue numbers fit in 4 columns (-999..9999); one letter of insertion code may follow. */
const RESIDUE_NUMBER_PATTERN = /^(-?\d{1,5})([A-Z]?)$/i;
/** PDB format has one-character chain ids (column 22). */
const CHAIN_ID_PATTERN = /^[A-Z0-9]$/i;
const HAS_LETTER = /[A-Z]/i;
/** What may follow "No" and still mean no bonds: "hydrogen bonds", "H-bonds", "H bonds", "hbonds" (any case). */
const NO_BONDS_TAIL = /^(?:hydrogen[ -]?bonds?|h[ -]?bonds?)(?: found)?$/i;

/**
 * One-letter atom names: a PDB atom name starts with its element symbol, so a one-letter name is an element. On a
 * standard amino acid only the backbone N, C, O (and hidden H) have one-letter names.
 */
const ONE_LETTER_ELEMENTS: ReadonlySet<string> = new Set([
  "H",
  "B",
  "C",
  "N",
  "O",
  "F",
  "P",
  "S",
  "K",
  "V",
  "Y",
  "I",
  "W",
  "U",
]);
const ONE_LETTER_AMINO_ACID_ATOMS: ReadonlySet<string> = new Set(["N", "C", "O", "H"]);

/** Whether `token` can be an atom name of residue `residueName` as far as a one-letter name goes. */
function canBeOneLetterAtom(residueName: string, token: string): boolean {
  const upper = token.toUpperCase();
  return STANDARD_AMINO_ACIDS.has(residueName.toUpperCase())
    ? ONE_LETTER_AMINO_ACID_ATOMS.has(upper)
    : ONE_LETTER_ELEMENTS.has(upper);
}

/**
 * T9's chain is the 4th part. A one-character 3rd part that cannot be an atom of the residue (`GLY 27 A O`: GLY has
 * no atom "A") or a 4th part that cannot be a chain (`TYR 228 A OH`) means the chain was written before the atom;
 * read by the grammar, `GLY 27 A O` would be atom "A" on chain "O" and silently score 0, so it is refused with the
 * order spelled out. (`GLY 27 C O` is lexically both: the item decides, see `swappedReadingProblem`.)
 */
function chainBeforeAtomProblem(
  residue: string,
  number: string,
  third: string,
  fourth: string,
  where: string,
  eg: string,
): string | undefined {
  if (!CHAIN_ID_PATTERN.test(third) || !ATOM_NAME_PATTERN.test(fourth) || !HAS_LETTER.test(fourth)) return undefined;
  const fourthIsChain = CHAIN_ID_PATTERN.test(fourth);
  if (fourthIsChain && canBeOneLetterAtom(residue, third)) return undefined;
  const swapped = `${residue} ${number} ${fourth} ${third}`.toUpperCase();
  const why = fourthIsChain
    ? `${quote(third)} is not an atom of ${residue.toUpperCase()}`
    : `${quote(fourth)} is not a one-character chain id`;
  return `${where}${why}: write the atom name before the chain (${quote("<RES> <resnum> <atom> <chain>")}), as in ${quote(swapped)} — e.g. ${quote(eg)}`;
}

/** One-letter amino-acid codes and the three-letter codes answers must use. */
const THREE_LETTER_CODE: Readonly<Record<string, string>> = {
  A: "ALA",
  R: "ARG",
  N: "ASN",
  D: "ASP",
  C: "CYS",
  Q: "GLN",
  E: "GLU",
  G: "GLY",
  H: "HIS",
  I: "ILE",
  L: "LEU",
  K: "LYS",
  M: "MET",
  F: "PHE",
  P: "PRO",
  S: "SER",
  T: "THR",
  W: "TRP",
  Y: "TYR",
  V: "VAL",
  U: "SEC",
  O: "PYL",
};

/**
 * A one-letter amino-acid code where a residue name belongs is a format error naming the
 * three-letter code (`R` → `ARG`): keys name residues by their PDB three-letter code, so a one-letter
 * code would otherwise parse and silently score 0.
 */
function oneLetterCodeProblem(token: string, where: string, eg: string): string | undefined {
  const three = THREE_LETTER_CODE[token.toUpperCase()];
  if (token.length !== 1 || three === undefined) return undefined;
  return `${where}${quote(token)} is a one-letter amino-acid code: write the 3-letter code ${quote(three)} — e.g. ${quote(eg)}`;
}

/**
 * An answer that lists every true bond plus extra ones scores at most this (spec §4).
 */
const SUPERSET_PARTIAL_CAP = 0.5;
/** An answer with more than this many bonds per true bond scores 0 (spec §4). */
const MAX_ANSWERED_PER_TRUE_BOND = 2;

export interface ResidueBond {
  /** 3-letter residue code, e.g. ARG. */
  residueName: string;
  /** Protein atom name, e.g. NH2. */
  atomName: string;
  /** Ligand atom name as labelled in the images, e.g. O1B. */
  ligandAtomName: string;
}

export interface PocketBond extends ResidueBond {
  residueNumber: number;
  /** PDB insertion code, "" when none. */
  insertionCode: string;
  chainId: string;
}

export type HbondAnswer<B> = { kind: "none" } | { kind: "bonds"; bonds: B[] };

// Residue names may be all digits: chemical component ids such as 032 exist (3og7's ligand).
const residueNameSchema = z.string().regex(RESIDUE_NAME_PATTERN, "residue name: 1–3 letters/digits");
const atomNameSchema = z
  .string()
  .regex(ATOM_NAME_PATTERN, "atom name: 1–6 of letters, digits, ' \" * _")
  .regex(HAS_LETTER, "atom name needs a letter");

export const ResidueBondSchema = z.object({
  residueName: residueNameSchema,
  atomName: atomNameSchema,
  ligandAtomName: atomNameSchema,
});

export const PocketBondSchema = ResidueBondSchema.extend({
  residueNumber: z.number().int().min(-9999).max(99999),
  insertionCode: z.string().regex(/^[A-Z]?$/i, "insertion code: one letter or empty"),
  chainId: z.string().regex(CHAIN_ID_PATTERN, "chain id: one letter or digit"),
});

export function hbondAnswerSchema<B>(bond: z.ZodType<B>): z.ZodType<HbondAnswer<B>> {
  return z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("none") }),
    z.object({ kind: z.literal("bonds"), bonds: z.array(bond).min(1) }),
  ]) as unknown as z.ZodType<HbondAnswer<B>>;
}

type Result<V> = { ok: true; value: V } | { ok: false; error: string };

/** What an item's public fields say about the names a T9 answer can use. */
export interface BondItemNames {
  /** The chains the question lists. */
  chainIds: readonly string[];
  /** Every pocket residue with its atom names (the pick lists), when the item has them. */
  residues?: readonly {
    residueName: string;
    residueNumber: number;
    insertionCode?: string;
    chainId: string;
    atoms: readonly string[];
  }[];
  /** The ligand's atom names (the pick list), when the item has them. */
  ligandAtoms?: readonly string[];
}

/** Why a T9 protein side names no chain (or, with pick lists, no residue or atom) of the item; undefined when it does. */
function missingFromItem(side: Omit<PocketBond, "ligandAtomName">, item: BondItemNames): string | undefined {
  const up = (x: string) => x.toUpperCase();
  if (!item.chainIds.some((c) => up(c) === side.chainId))
    return `this item has no chain ${side.chainId} (its chains: ${item.chainIds.map(up).join(", ")})`;
  if (!item.residues) return undefined;
  const residue = item.residues.find(
    (r) =>
      up(r.chainId) === side.chainId &&
      r.residueNumber === side.residueNumber &&
      up(r.insertionCode ?? "") === side.insertionCode &&
      up(r.residueName) === side.residueName,
  );
  const name = `${side.residueName} ${side.residueNumber}${side.insertionCode}`;
  if (!residue) return `chain ${side.chainId} has no pocket residue ${name}`;
  return residue.atoms.some((a) => up(a) === side.atomName)
    ? undefined
    : `${name} on chain ${side.chainId} has no atom ${side.atomName}`;
}

/**
 * `GLY 27 C O` follows the format (`<RES> <resnum> <atom> <chain>`: atom C on chain O), but a participant may have
 * typed the chain first (chain C, atom O); both tokens are lexically an atom and a chain. The spec fixes the order, and
 * the canonical text and the pick lists write it that way, so the format's reading stands whenever the item has it
 * (even if the other reading also exists: then the text means what the format says). Only when the item has no
 * such atom or chain but does have the swapped one is the answer refused, with both readings and the way to write
 * the swapped one, never silently re-read: the participant confirms by retyping.
 */
function swappedReadingProblem(
  side: Omit<PocketBond, "ligandAtomName">,
  item: BondItemNames | undefined,
  where: string,
  eg: string,
): string | undefined {
  const missing = item ? missingFromItem(side, item) : undefined;
  if (!item || missing === undefined) return undefined;
  const swappedChain = side.atomName;
  const swappedAtom = side.chainId;
  if (!CHAIN_ID_PATTERN.test(swappedChain) || !ATOM_NAME_PATTERN.test(swappedAtom) || !HAS_LETTER.test(swappedAtom))
    return undefined;
  if (missingFromItem({ ...side, atomName: swappedAtom, chainId: swappedChain }, item) !== undefined) return undefined;
  const residue = `${side.residueName} ${side.residueNumber}${side.insertionCode}`;
  return (
    `${where}ambiguous: in the format ${quote(POCKET_PROTEIN_PATTERN)} this is atom ${side.atomName} on chain ${side.chainId}, but ${missing}; ` +
    `if you meant chain ${swappedChain}, atom ${swappedAtom}, write the atom before the chain: ${quote(`${residue} ${swappedAtom} ${swappedChain}`)} — e.g. ${quote(eg)}`
  );
}

/** Per-task shape of a bond list: how the protein side is written. */
export interface BondListGrammar<B extends ResidueBond> {
  /** "<RES> <atom>" or "<RES> <resnum> <atom> <chain>". */
  proteinPattern: string;
  /** One protein side, e.g. "ARG NH2". */
  proteinExample: string;
  /** A whole correct answer. */
  example: string;
  /** T4 lists start with `Yes:`. */
  yesPrefix: boolean;
  /** Whether `No` (no bonds) is a valid answer. */
  allowNo: boolean;
  /** `item`: the names the item offers (T9), to tell a chain written before its atom from the format's order. */
  parseProteinSide(tokens: readonly string[], where: string, item?: BondItemNames): Result<Omit<B, "ligandAtomName">>;
  formatProteinSide(bond: B): string;
  /** Canonical order of bonds in a list. */
  compare(a: B, b: B): number;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Characters each kind of name may use, and how an error message says so. */
const NAME_CHARACTERS = new Map<RegExp, { char: RegExp; allowed: string; max: number }>([
  [RESIDUE_NAME_PATTERN, { char: /^[A-Z0-9]$/i, allowed: "letters and digits", max: 3 }],
  [ATOM_NAME_PATTERN, { char: /^[A-Z0-9'"*_]$/i, allowed: "letters, digits, ' \" * _", max: 6 }],
  [CHAIN_ID_PATTERN, { char: /^[A-Z0-9]$/i, allowed: "one letter or digit", max: 1 }],
]);

/** "'ʹ' (U+02B9)": a character named so that an invisible or look-alike one can still be found. */
export function describeCharacter(ch: string): string {
  return `${quote(ch)} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
}

/** Why `token` does not match its name pattern: the first refused character, else its length, else no letter. */
function nameProblemDetail(token: string, pattern: RegExp, needsLetter: boolean): string {
  const rule = NAME_CHARACTERS.get(pattern);
  if (!rule) return "";
  const refused = [...token].find((ch) => !rule.char.test(ch));
  if (refused !== undefined)
    return `: the character ${describeCharacter(refused)} cannot be part of it (${rule.allowed} only)`;
  if ([...token].length > rule.max) return `: it has ${[...token].length} characters, at most ${rule.max}`;
  if (needsLetter && !HAS_LETTER.test(token)) return ": it needs a letter";
  return "";
}

function checkName(
  token: string,
  pattern: RegExp,
  what: string,
  where: string,
  eg: string,
  needsLetter = true,
): string | undefined {
  if (pattern.test(token) && (!needsLetter || HAS_LETTER.test(token))) return undefined;
  return `${where}${quote(token)} is not ${what}${nameProblemDetail(token, pattern, needsLetter)} — e.g. ${quote(eg)}`;
}

/** T4: `<RES> <atom>`; the residue is fixed by the question, so no number or chain. */
const RESIDUE_PROTEIN_PATTERN = "<RES> <atom>";
const RESIDUE_PROTEIN_EXAMPLE = "ARG NH2";
const RESIDUE_EXAMPLE = "Yes: ARG NH2, O1B; ARG NE, O2G";

export const RESIDUE_BOND_GRAMMAR: BondListGrammar<ResidueBond> = {
  proteinPattern: RESIDUE_PROTEIN_PATTERN,
  proteinExample: RESIDUE_PROTEIN_EXAMPLE,
  example: RESIDUE_EXAMPLE,
  yesPrefix: true,
  allowNo: true,
  parseProteinSide(tokens, where) {
    const eg = RESIDUE_EXAMPLE;
    const oneLetter = tokens[0] === undefined ? undefined : oneLetterCodeProblem(tokens[0], where, eg);
    if (oneLetter !== undefined) return { ok: false, error: oneLetter };
    if (tokens.length === 3 && /^-?\d+[A-Z]?$/i.test(tokens[1] ?? "")) {
      return {
        ok: false,
        error: `${where}name the residue by its 3-letter code only, without a number: write ${quote(`${tokens[0]} ${tokens[2]}`)} — e.g. ${quote(eg)}`,
      };
    }
    const [residue, atom] = tokens;
    if (tokens.length !== 2 || residue === undefined || atom === undefined) {
      return {
        ok: false,
        error: `${where}expected ${quote(RESIDUE_PROTEIN_PATTERN)} before the comma (e.g. ${quote(RESIDUE_PROTEIN_EXAMPLE)}), got ${quote(tokens.join(" "))} — e.g. ${quote(eg)}`,
      };
    }
    const problem =
      oneLetterCodeProblem(residue, where, eg) ??
      checkName(residue, RESIDUE_NAME_PATTERN, "a 3-letter residue code", where, eg, false) ??
      checkName(atom, ATOM_NAME_PATTERN, "an atom name", where, eg);
    if (problem !== undefined) return { ok: false, error: problem };
    return { ok: true, value: { residueName: residue.toUpperCase(), atomName: atom.toUpperCase() } };
  },
  formatProteinSide(bond) {
    return `${bond.residueName.toUpperCase()} ${bond.atomName.toUpperCase()}`;
  },
  compare(a, b) {
    return (
      compareText(a.residueName.toUpperCase(), b.residueName.toUpperCase()) ||
      compareText(a.atomName.toUpperCase(), b.atomName.toUpperCase()) ||
      compareText(a.ligandAtomName.toUpperCase(), b.ligandAtomName.toUpperCase())
    );
  },
};

/** T9: `<RES> <resnum> <atom> <chain>`, resnum with an optional insertion code (`60B`). */
const POCKET_PROTEIN_PATTERN = "<RES> <resnum> <atom> <chain>";
const POCKET_PROTEIN_EXAMPLE = "TYR 228 OH A";
const POCKET_EXAMPLE = "TYR 228 OH A, O5; ASP 104 OD1 A, N2";

export const POCKET_BOND_GRAMMAR: BondListGrammar<PocketBond> = {
  proteinPattern: POCKET_PROTEIN_PATTERN,
  proteinExample: POCKET_PROTEIN_EXAMPLE,
  example: POCKET_EXAMPLE,
  yesPrefix: false,
  allowNo: true,
  parseProteinSide(tokens, where, item) {
    const eg = POCKET_EXAMPLE;
    const [residue, number, atom, chain] = tokens;
    if (
      tokens.length !== 4 ||
      residue === undefined ||
      number === undefined ||
      atom === undefined ||
      chain === undefined
    ) {
      const hint =
        tokens.length === 3 && RESIDUE_NUMBER_PATTERN.test(tokens[1] ?? "") ? " (is the chain missing?)" : "";
      return {
        ok: false,
        error: `${where}expected 4 parts ${quote(POCKET_PROTEIN_PATTERN)} before the comma (e.g. ${quote(POCKET_PROTEIN_EXAMPLE)}), got ${tokens.length}: ${quote(tokens.join(" "))}${hint} — e.g. ${quote(eg)}`,
      };
    }
    const residueProblem =
      oneLetterCodeProblem(residue, where, eg) ??
      checkName(residue, RESIDUE_NAME_PATTERN, "a 3-letter residue code", where, eg, false);
    if (residueProblem !== undefined) return { ok: false, error: residueProblem };
    const numberMatch = RESIDUE_NUMBER_PATTERN.exec(number);
    if (!numberMatch) {
      return {
        ok: false,
        error: `${where}expected a residue number as the 2nd part (e.g. 228, or 60B with an insertion code), got ${quote(number)} — e.g. ${quote(eg)}`,
      };
    }
    const swapProblem = chainBeforeAtomProblem(residue, number, atom, chain, where, eg);
    if (swapProblem !== undefined) return { ok: false, error: swapProblem };
    const atomProblem = checkName(atom, ATOM_NAME_PATTERN, "an atom name", where, eg);
    if (atomProblem !== undefined) return { ok: false, error: atomProblem };
    if (!CHAIN_ID_PATTERN.test(chain)) {
      return {
        ok: false,
        error: `${where}expected a one-character chain id as the 4th part, got ${quote(chain)}${nameProblemDetail(chain, CHAIN_ID_PATTERN, false)} — e.g. ${quote(eg)}`,
      };
    }
    const residueNumber = Number(numberMatch[1]);
    const value = {
      residueName: residue.toUpperCase(),
      residueNumber: residueNumber === 0 ? 0 : residueNumber,
      insertionCode: (numberMatch[2] ?? "").toUpperCase(),
      atomName: atom.toUpperCase(),
      chainId: chain.toUpperCase(),
    };
    const ambiguity = swappedReadingProblem(value, item, where, eg);
    if (ambiguity !== undefined) return { ok: false, error: ambiguity };
    // A name the item does not have can only be a typo (the key names the item's own atoms): refused, never scored 0.
    const missing = item ? missingFromItem(value, item) : undefined;
    if (missing !== undefined)
      return {
        ok: false,
        error: `${where}${missing}: check the residue, atom and chain against the images — e.g. ${quote(eg)}`,
      };
    return { ok: true, value };
  },
  formatProteinSide(bond) {
    return `${bond.residueName} ${bond.residueNumber}${bond.insertionCode} ${bond.atomName} ${bond.chainId}`.toUpperCase();
  },
  compare(a, b) {
    return (
      compareText(a.chainId.toUpperCase(), b.chainId.toUpperCase()) ||
      a.residueNumber - b.residueNumber ||
      compareText(a.insertionCode.toUpperCase(), b.insertionCode.toUpperCase()) ||
      compareText(a.residueName.toUpperCase(), b.residueName.toUpperCase()) ||
      compareText(a.atomName.toUpperCase(), b.atomName.toUpperCase()) ||
      compareText(a.ligandAtomName.toUpperCase(), b.ligandAtomName.toUpperCase())
    );
  },
};

/** Canonical text of one bond; also its identity (names are case-insensitive). */
export function formatBond<B extends ResidueBond>(bond: B, grammar: BondListGrammar<B>): string {
  return `${grammar.formatProteinSide(bond)}, ${bond.ligandAtomName.toUpperCase()}`;
}

/** Canonical bond list: upper case, duplicates removed, sorted (so equal sets give equal text). */
export function normalizeBonds<B extends ResidueBond>(bonds: readonly B[], grammar: BondListGrammar<B>): B[] {
  const byKey = new Map<string, B>();
  for (const bond of bonds) {
    const key = formatBond(bond, grammar);
    if (!byKey.has(key)) byKey.set(key, bond);
  }
  return [...byKey.values()].sort((a, b) => grammar.compare(a, b));
}

export function formatHbondAnswer<B extends ResidueBond>(answer: HbondAnswer<B>, grammar: BondListGrammar<B>): string {
  if (answer.kind === "none") return "No";
  const list = normalizeBonds(answer.bonds, grammar)
    .map((bond) => formatBond(bond, grammar))
    .join("; ");
  return grammar.yesPrefix ? `Yes: ${list}` : list;
}

export function parseHbondAnswer<B extends ResidueBond>(
  text: string,
  grammar: BondListGrammar<B>,
  item?: BondItemNames,
): ParseResult<HbondAnswer<B>> {
  const listPattern = `${grammar.yesPrefix ? "Yes: " : ""}${grammar.proteinPattern}, <ligand atom>; ...`;
  const expected = `${grammar.allowNo ? "'No' or " : ""}${quote(listPattern)}`;
  const eg = ` — e.g. ${quote(grammar.example)}`;
  const normalized = normalizeAnswerText(text);
  if (normalized === "") return { ok: false, error: `the answer is empty: expected ${expected}${eg}` };

  // `None` and `No`, optionally followed by "hydrogen bonds" / "H-bonds" ("No H-bonds", "no hydrogen bond").
  const noneMatch = /^none$/i.test(normalized);
  const noMatch = noneMatch ? null : /^no\b\s*(.*)$/i.exec(normalized);
  // A T9 list may start with a residue named NO; only a comma-free text is read as the word "No".
  if (noneMatch || (noMatch && (grammar.yesPrefix || !(noMatch[1] ?? "").includes(",")))) {
    if (!grammar.allowNo) return { ok: false, error: `this task needs a list of bonds, not 'No'${eg}` };
    const rest = noMatch?.[1] ?? "";
    if (rest !== "" && !NO_BONDS_TAIL.test(rest)) {
      return {
        ok: false,
        error: `unexpected ${quote(rest)} after 'No': answer just 'No' when there are no hydrogen bonds${eg}`,
      };
    }
    return { ok: true, value: { kind: "none" }, canonical: "No" };
  }

  let body = normalized;
  const yesMatch = /^yes\b\s*(:?)\s*(.*)$/i.exec(normalized);
  if (grammar.yesPrefix) {
    if (!yesMatch) {
      const hint = normalized.includes(",") ? ": start the list with 'Yes:'" : "";
      return { ok: false, error: `expected ${expected}, got ${quote(normalized)}${hint}${eg}` };
    }
    if (yesMatch[1] !== ":") return { ok: false, error: `expected ':' after 'Yes'${eg}` };
    body = yesMatch[2] ?? "";
    if (body === "") return { ok: false, error: `list at least one bond after 'Yes:'${eg}` };
  } else if (yesMatch) {
    return { ok: false, error: `list the bonds directly, without 'Yes'${eg}` };
  }

  const bonds: B[] = [];
  const chunks = body.split(";").map((chunk) => chunk.trim());
  for (const [i, chunk] of chunks.entries()) {
    if (chunk === "") return { ok: false, error: `bond ${i + 1} is empty (two ';' in a row?)${eg}` };
    const where = `bond ${i + 1} (${quote(chunk)}): `;
    const sides = chunk.split(",").map((side) => side.trim());
    if (sides.length === 1) {
      return {
        ok: false,
        error: `${where}expected a comma between the protein atom and the ligand atom, as in ${quote(`${grammar.proteinExample}, O1`)}${eg}`,
      };
    }
    if (sides.length > 2) {
      return {
        ok: false,
        error: `${where}expected one comma per bond (${quote(`${grammar.proteinPattern}, <ligand atom>`)}); separate bonds with ';'${eg}`,
      };
    }
    const protein = grammar.parseProteinSide(splitTokens(sides[0] ?? ""), where, item);
    if (!protein.ok) return protein;
    const ligandTokens = splitTokens(sides[1] ?? "");
    const [ligandAtom] = ligandTokens;
    if (ligandAtom === undefined)
      return { ok: false, error: `${where}expected a ligand atom name after the comma${eg}` };
    if (ligandTokens.length > 1) {
      return {
        ok: false,
        error: `${where}expected one ligand atom name after the comma, got ${quote(ligandTokens.join(" "))}${eg}`,
      };
    }
    const ligandProblem = checkName(ligandAtom, ATOM_NAME_PATTERN, "a ligand atom name", where, grammar.example);
    if (ligandProblem !== undefined) return { ok: false, error: ligandProblem };
    if (item?.ligandAtoms && !item.ligandAtoms.some((a) => a.toUpperCase() === ligandAtom.toUpperCase())) {
      return {
        ok: false,
        error: `${where}the ligand has no atom ${ligandAtom.toUpperCase()} (its atoms: ${item.ligandAtoms.map((a) => a.toUpperCase()).join(", ")})${eg}`,
      };
    }
    bonds.push({ ...protein.value, ligandAtomName: ligandAtom.toUpperCase() } as B);
  }
  const value: HbondAnswer<B> = { kind: "bonds", bonds: normalizeBonds(bonds, grammar) };
  return { ok: true, value, canonical: formatHbondAnswer(value, grammar) };
}

/**
 * Scores an H-bond answer against the true bonds (spec §4, T4 and T9). Both sides are compared as
 * sets (order, duplicates and letter case are irrelevant).
 * - No true bonds: `No` scores 1, any listed bond 0.
 * - True bonds exist: `No` scores 0. Otherwise partial = precision (true listed / listed), except
 *   that listing every true bond plus extras scores at most 0.5, and listing more than twice as many
 *   bonds as there are true ones scores 0.
 * Note: precision alone means a correct strict subset (1 of 2 true bonds, nothing false) scores
 * partial 1 but exact 0; that is the spec's definition.
 */
export function scoreHbondAnswer<B extends ResidueBond>(
  answer: HbondAnswer<B>,
  gold: HbondAnswer<B>,
  grammar: BondListGrammar<B>,
): TaskScore {
  const truth = new Set(gold.kind === "none" ? [] : gold.bonds.map((b) => formatBond(b, grammar)));
  if (truth.size === 0) {
    const right = answer.kind === "none" ? 1 : 0;
    return { exact: right, partial: right };
  }
  if (answer.kind === "none") return { exact: 0, partial: 0 };
  const answered = new Set(answer.bonds.map((b) => formatBond(b, grammar)));
  let hits = 0;
  for (const key of answered) if (truth.has(key)) hits++;
  const exact = hits === truth.size && answered.size === truth.size ? 1 : 0;
  if (answered.size > MAX_ANSWERED_PER_TRUE_BOND * truth.size) return { exact, partial: 0 };
  const precision = hits / answered.size;
  const partial =
    hits === truth.size && answered.size > truth.size ? Math.min(precision, SUPERSET_PARTIAL_CAP) : precision;
  return { exact, partial };
}
