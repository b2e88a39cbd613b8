/**
 * Turns a prepared complex into the generators' working form: bonds for drawing, H-bonds for gold
 * answers, pocket residues with their atoms, and a check that answers can name its atoms.
 */
import { perceiveBonds } from "@/lib/molecule/chemistry/bonds";
import type { HBondCriteria } from "@/lib/molecule/hbond-geometry";
import {
  type HBond,
  type HBondPartners,
  HBOND_PARTNERS,
  filterHBondPartners,
  findComplexHBonds,
} from "@/lib/molecule/hbonds";
import { z } from "zod";
import { formatParseError, parseStructure } from "@/lib/molecule/parse";
import { type PrepareComplexOptions, type PreparedComplex, prepareComplex } from "@/lib/molecule/prepare";
import { type Atom, type Structure, residueKeyText } from "@/lib/molecule/types";
import { PdbIdSchema } from "@/lib/tasks/fields";
import { NUCLEOTIDES } from "@/lib/molecule/chemistry/residues";
import type { ComplexResidue, ComplexSource, GeneratorComplex } from "./types";

/** Atom names the answer grammar accepts (lib/tasks/grammar/hbond.ts): 1–6 of these, with a letter. */
const ANSWER_ATOM_NAME = /^[A-Za-z0-9'"*_]{1,6}$/;
const HAS_LETTER = /[A-Za-z]/;
/** Residue names the answer grammar accepts (PDB columns 18–20). */
const ANSWER_RESIDUE_NAME = /^[A-Za-z0-9]{1,3}$/;
const CHAIN_ID = /^[A-Za-z0-9]$/;

export interface CreateGeneratorComplexInput extends ComplexSource {
  prepared: PreparedComplex;
  /** Overrides of the H-bond criteria (default: MiSI's relaxed ChimeraX criteria). */
  hbondCriteria?: Partial<HBondCriteria>;
}

export type CreateGeneratorComplexResult = { ok: true; complex: GeneratorComplex } | { ok: false; reason: string };

/** Why answers could not name this complex's atoms unambiguously, or null. */
function findNamingProblem(ligandAtoms: readonly Atom[], residues: readonly ComplexResidue[]): string | null {
  const seen = new Map<string, number>();
  for (const a of ligandAtoms) {
    if (!ANSWER_ATOM_NAME.test(a.name) || !HAS_LETTER.test(a.name))
      return `ligand atom name "${a.name}" cannot be written in an answer`;
    const upper = a.name.toUpperCase();
    seen.set(upper, (seen.get(upper) ?? 0) + 1);
  }
  const duplicated = [...seen].filter(([, n]) => n > 1).map(([name]) => name);
  if (duplicated.length > 0)
    return `ligand atom names repeat (${duplicated.slice(0, 5).join(", ")}): answers naming them would be ambiguous`;
  const chains = new Map<string, string>();
  for (const r of residues) {
    const upper = r.key.chain.toUpperCase();
    const other = chains.get(upper);
    if (other !== undefined && other !== r.key.chain)
      return `chains "${other}" and "${r.key.chain}" differ only in case (answers are case-insensitive)`;
    chains.set(upper, r.key.chain);
  }
  return null;
}

/** Residue as participants see it labelled, or null when it cannot be named in an answer. */
function toResidueRef(a: Atom): ComplexResidue["ref"] {
  if (!CHAIN_ID.test(a.chain) || !ANSWER_RESIDUE_NAME.test(a.resName) || !/^[A-Za-z]?$/.test(a.iCode)) return null;
  return { residueName: a.resName, residueNumber: a.resSeq, insertionCode: a.iCode, chainId: a.chain };
}

/** Computes bonds, H-bonds and residues once per complex. Fails on a bad PDB id or an empty side. */
export function createGeneratorComplex(input: CreateGeneratorComplexInput): CreateGeneratorComplexResult {
  const where = input.ligandFile ? `${input.file} + ${input.ligandFile}` : input.file;
  const pdbId = PdbIdSchema.safeParse(input.pdbId);
  if (!pdbId.success)
    return {
      ok: false,
      reason: `${where}: PDB id "${input.pdbId}" is not a 4-character id starting with a digit (questions name complexes by it)`,
    };
  const { prepared } = input;
  const ligandAtoms = prepared.ligand.atoms;
  const pocketAtoms = prepared.pocketAtoms;
  if (ligandAtoms.length === 0) return { ok: false, reason: `${where}: the ligand has no heavy atoms` };
  if (pocketAtoms.length === 0)
    return { ok: false, reason: `${where}: no pocket residue within ${prepared.cutoffA} Å of the ligand` };

  const ligandBonds = prepared.ligand.bonds.length > 0 ? prepared.ligand.bonds : perceiveBonds(ligandAtoms);
  const pocketBonds = perceiveBonds(pocketAtoms);

  const kindOf = new Map(prepared.pocketResidues.map((g) => [residueKeyText(g.key), g]));
  const byKey = new Map<string, ComplexResidue>();
  const residues: ComplexResidue[] = [];
  pocketAtoms.forEach((a, i) => {
    const k = residueKeyText(a);
    let r = byKey.get(k);
    if (!r) {
      const group = kindOf.get(k);
      r = {
        key: { resName: a.resName, chain: a.chain, resSeq: a.resSeq, iCode: a.iCode },
        id: group?.id ?? `${a.resName}:${a.chain}:${a.resSeq}${a.iCode}`,
        kind: group?.kind ?? "polymer",
        atomIndices: [],
        ref: toResidueRef(a),
      };
      byKey.set(k, r);
      residues.push(r);
    }
    r.atomIndices.push(i);
  });

  // Every pocket group; the T4/T9 generators keep amino acids only unless their `hbondPartners` param says otherwise.
  const hbonds = findComplexHBonds(prepared, input.hbondCriteria, "all-pocket-groups");
  return {
    ok: true,
    complex: {
      pdbId: pdbId.data.toLowerCase(),
      file: input.file,
      sha256: input.sha256,
      ...(input.ligandFile !== undefined ? { ligandFile: input.ligandFile } : {}),
      ...(input.ligandSha256 !== undefined ? { ligandSha256: input.ligandSha256 } : {}),
      ...(input.parseNotes !== undefined && input.parseNotes.length > 0 ? { parseNotes: [...input.parseNotes] } : {}),
      ligandLabel: prepared.ligand.id ?? input.ligandFile ?? "ligand",
      prepared,
      ligandAtoms,
      pocketAtoms,
      ligandBonds,
      pocketBonds,
      residues,
      hbonds,
      namingProblem: findNamingProblem(ligandAtoms, residues),
    },
  };
}

/**
 * Generator param shared by T4 and T9: which pocket groups an answer key may name. Default
 * "amino-acids" (the paper's answer format starts with the amino-acid type); "all-pocket-groups"
 * also keys bonds to cofactors, sulfates and other hetero groups in the pocket.
 */
export const HBondPartnersParamSchema = z.enum(HBOND_PARTNERS).default("amino-acids");

/** The complex's H-bonds that an answer key names under `partners`. */
export function keyHBondsOf(complex: GeneratorComplex, partners: HBondPartners): HBond[] {
  return filterHBondPartners(complex.hbonds, partners);
}

/** Whether a pocket residue may be named in an answer key under `partners` (T4 target residues). */
export function isKeyResidue(residue: ComplexResidue, partners: HBondPartners): boolean {
  return partners === "all-pocket-groups" || (residue.kind === "polymer" && !NUCLEOTIDES.has(residue.key.resName));
}

/** The pocket residue an H-bond's protein atom belongs to. */
export function findResidueOfBond(
  complex: GeneratorComplex,
  bond: GeneratorComplex["hbonds"][number],
): ComplexResidue | undefined {
  const p = bond.proteinAtom;
  return complex.residues.find(
    (r) =>
      r.key.chain === p.chain && r.key.resSeq === p.resSeq && r.key.iCode === p.iCode && r.key.resName === p.resName,
  );
}

/** Heavy-atom names of a residue, file order. */
export function listResidueAtomNames(complex: GeneratorComplex, residue: ComplexResidue): string[] {
  return residue.atomIndices.map((i) => complex.pocketAtoms[i]!.name);
}

export interface LoadGeneratorComplexInput {
  pdbId: string;
  /** Structure file name (relative path) and text. */
  file: string;
  text: string;
  sha256: string;
  /** The ligand's own file (PDBbind-style split). */
  ligandFile?: string;
  ligandText?: string;
  ligandSha256?: string;
  prepareOptions?: Omit<PrepareComplexOptions, "ligandStructure">;
  hbondCriteria?: Partial<HBondCriteria>;
}

/** Parses, prepares and wraps one complex from file texts; every failure names the file and the reason. */
export function loadGeneratorComplex(input: LoadGeneratorComplexInput): CreateGeneratorComplexResult {
  const parsed = parseStructure(input.text, input.file);
  if (!parsed.ok) return { ok: false, reason: formatParseError(parsed.error) };
  let ligandStructure: Structure | undefined;
  if (input.ligandText !== undefined) {
    const ligand = parseStructure(input.ligandText, input.ligandFile ?? "ligand");
    if (!ligand.ok) return { ok: false, reason: formatParseError(ligand.error) };
    ligandStructure = ligand.structure;
  }
  const prepared = prepareComplex(parsed.structure, { ...input.prepareOptions, ligandStructure });
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  // What the parser did (duplicate records dropped, alternate locations, model 1 of N) goes with the complex: the run
  // prints it and every item's provenance records it.
  const parseNotes = [
    ...parsed.structure.notes.map((n) => `${input.file}: ${n}`),
    ...(ligandStructure?.notes ?? []).map((n) => `${input.ligandFile ?? "ligand"}: ${n}`),
  ];
  return createGeneratorComplex({
    parseNotes,
    pdbId: input.pdbId,
    file: input.file,
    sha256: input.sha256,
    ...(input.ligandFile !== undefined ? { ligandFile: input.ligandFile } : {}),
    ...(input.ligandSha256 !== undefined ? { ligandSha256: input.ligandSha256 } : {}),
    prepared: prepared.complex,
    hbondCriteria: input.hbondCriteria,
  });
}
