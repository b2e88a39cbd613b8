/**
 * Residue classes used by complex preparation (ligand choice, pocket cut). Residue names are PDB
 * Chemical Component Dictionary (CCD) ids. The lists are data, so a curator can extend them.
 */

/** Water in its usual spellings (PDB, AMBER/CHARMM outputs, deuterated). */
export const WATER_RESIDUES: ReadonlySet<string> = new Set(["HOH", "WAT", "DOD", "H2O"]);

/** The 20 standard amino acids plus selenocysteine, pyrrolysine and common protonation-state names. */
export const STANDARD_AMINO_ACIDS: ReadonlySet<string> = new Set([
  "ALA",
  "ARG",
  "ASN",
  "ASP",
  "CYS",
  "GLN",
  "GLU",
  "GLY",
  "HIS",
  "ILE",
  "LEU",
  "LYS",
  "MET",
  "PHE",
  "PRO",
  "SER",
  "THR",
  "TRP",
  "TYR",
  "VAL",
  "SEC",
  "PYL",
  // force-field spellings that appear in prepared PDB files (PDBbind pockets, MD outputs)
  "HID",
  "HIE",
  "HIP",
  "HSD",
  "HSE",
  "HSP",
  "CYX",
  "CYM",
  "ASH",
  "GLH",
  "LYN",
]);

/** Frequent modified amino acids found as HETATM inside chains (polymer, never the ligand). */
export const MODIFIED_AMINO_ACIDS: ReadonlySet<string> = new Set([
  "MSE",
  "TPO",
  "SEP",
  "PTR",
  "CSO",
  "CSD",
  "CME",
  "KCX",
  "LLP",
  "MLY",
  "M3L",
  "HYP",
  "PCA",
  "OCS",
  "CAS",
  "CSS",
  "NEP",
  "ALY",
  "SCH",
  "SNC",
  "CGU",
  "DAL",
  "MLE",
  "ABA",
  "NLE",
  "ORN",
  "TYS",
  "FME",
]);

export const NUCLEOTIDES: ReadonlySet<string> = new Set([
  "A",
  "C",
  "G",
  "U",
  "I",
  "DA",
  "DC",
  "DG",
  "DT",
  "DU",
  "DI",
  "N",
  "DN",
]);

/**
 * Monoatomic ions (CCD ids). Not ligands for MiSI-style items: a lone ion has no atoms to name.
 */
export const ION_RESIDUES: ReadonlySet<string> = new Set([
  "LI",
  "NA",
  "K",
  "RB",
  "CS",
  "MG",
  "CA",
  "SR",
  "BA",
  "MN",
  "MN3",
  "FE",
  "FE2",
  "CO",
  "3CO",
  "NI",
  "3NI",
  "CU",
  "CU1",
  "CU3",
  "ZN",
  "CD",
  "HG",
  "PB",
  "PT",
  "PT4",
  "AU",
  "AU3",
  "AG",
  "TL",
  "GA",
  "AL",
  "CR",
  "F",
  "CL",
  "BR",
  "IOD",
  "YB",
  "SM",
  "GD",
  "EU",
  "LU",
  "TB",
  "HO",
  "ER",
  "LA",
  "CE",
  "PR",
  "ND",
  "Y1",
  "OS",
  "IR",
  "RU",
  "RH",
  "PD",
  "W",
  "MO",
  "V",
  "SB",
  "XE",
  "KR",
  "AR",
  "O",
  "OH",
  "NH4",
]);

/**
 * Crystallisation additives, buffers, cryoprotectants, detergents and small polyatomic ions that
 * sit in many entries but are not the ligand of interest (after the lists used by PLIP and the
 * PDBbind curation notes). Succinate (SIN), bicine (BCN) and citrate (CIT/FLC) are crystallisation agents far more
 * often than ligands: where one is the ligand (e.g. 7ECR_SIN, 7ZTL_BCN) it comes in its own ligand file or is named.
 * Diatomic gases on a heme or other metal (CO, O2, NO, peroxide) are not the ligand a chemist means either.
 */
export const BUFFER_RESIDUES: ReadonlySet<string> = new Set([
  // small inorganic ions
  "SO4",
  "PO4",
  "NO3",
  "SCN",
  "CO3",
  "BCT",
  "AZI",
  "CYN",
  "PER",
  "CLO",
  "MOO",
  "WO4",
  "VO4",
  "PI",
  "2HP",
  // diatomic gases bound to a metal
  "CMO",
  "OXY",
  "NO",
  // alcohols, glycols, PEG fragments
  "GOL",
  "EDO",
  "PEG",
  "PGE",
  "PG4",
  "1PE",
  "P6G",
  "2PE",
  "12P",
  "15P",
  "PE4",
  "PE5",
  "PE8",
  "P33",
  "MPD",
  "MRD",
  "IPA",
  "EOH",
  "MOH",
  "BU3",
  "PDO",
  "1BO",
  "BUD",
  "HEZ",
  "PGO",
  "PGR",
  "XPE",
  // organic acids, salts, solvents
  "ACT",
  "ACY",
  "ACE",
  "FMT",
  "ACN",
  "DMS",
  "DMF",
  "DIO",
  "TLA",
  "SIN",
  "CIT",
  "FLC",
  "TAR",
  "MLI",
  "MLA",
  "OXL",
  "ACM",
  "URE",
  "GAI",
  // Good's buffers and friends
  "TRS",
  "TRIS",
  "EPE",
  "MES",
  "MPO",
  "PIN",
  "NHE",
  "CXS",
  "B3P",
  "BCN",
  "BTB",
  "HEPES",
  "CAC",
  "IMD",
  "BME",
  "DTT",
  "DTV",
  "TCE",
  "GSH",
  "EGL",
  "SGM",
  "AE3",
  "AE4",
  "NH2",
  // detergents and lipids from crystallisation
  "BOG",
  "LDA",
  "SDS",
  "DDQ",
  "HTG",
  "LMT",
  "OLC",
  "OLA",
  "MYR",
  "PLM",
  "STE",
  "CPS",
  "C8E",
  "UNX",
  "UNL",
]);

/**
 * Cofactors and prosthetic groups (CCD ids): bound in many entries beside the ligand a chemist cares about, so the
 * automatic ligand choice takes them only when nothing drug-like is there. Hemes and other porphyrins, flavins,
 * nicotinamide dinucleotides, nucleotides that act as cofactors or substrates of the enzyme's housekeeping (ATP, GTP and
 * their analogues), S-adenosyl methionine/homocysteine, coenzyme A, pyridoxal phosphate, thiamine diphosphate,
 * pterins and iron–sulfur clusters.
 */
export const COFACTOR_RESIDUES: ReadonlySet<string> = new Set([
  // porphyrins
  "HEM",
  "HEC",
  "HEA",
  "HEB",
  "HDD",
  "HNI",
  "HAS",
  "DHE",
  "SRM",
  "CLA",
  "CHL",
  "BCL",
  "BPH",
  "COH",
  "ZNH",
  "MHM",
  // flavins
  "FAD",
  "FMN",
  "FDA",
  "RBF",
  "FAE",
  // nicotinamides
  "NAD",
  "NAI",
  "NAP",
  "NDP",
  "NAJ",
  "NHD",
  "NPW",
  // nucleotides as cofactors (and their non-hydrolysable analogues)
  "ATP",
  "ADP",
  "AMP",
  "ANP",
  "ACP",
  "AGS",
  "APC",
  "GTP",
  "GDP",
  "GNP",
  "GCP",
  "GSP",
  "5GP",
  "CTP",
  "UTP",
  "UDP",
  "TTP",
  // methyl transfer, acyl transfer, PLP, ThDP
  "SAM",
  "SAH",
  "SFG",
  "COA",
  "ACO",
  "PLP",
  "PMP",
  "TPP",
  "TDP",
  // pterins and molybdopterin
  "H4B",
  "HBI",
  "BIO",
  "MTE",
  "MGD",
  "PCD",
  // iron–sulfur clusters
  "SF4",
  "FES",
  "F3S",
]);

/**
 * Saccharides (monosaccharides as CCD ids, including anomers). Glycans attached to proteins and
 * sugar additives are skipped by the automatic ligand choice unless sugars are asked for.
 */
export const SUGAR_RESIDUES: ReadonlySet<string> = new Set([
  "NAG",
  "NDG",
  "BMA",
  "MAN",
  "GAL",
  "GLA",
  "GLC",
  "BGC",
  "FUC",
  "FUL",
  "SIA",
  "SLB",
  "XYS",
  "XYP",
  "FRU",
  "SUC",
  "A2G",
  "NGA",
  "GCS",
  "GCU",
  "BDP",
  "IDR",
  "RAM",
  "RIB",
  "ARA",
  "TRE",
  "MAL",
  "LAT",
  "KDO",
  "GLO",
  "G6P",
  "BGP",
  "Z9N",
  "AHR",
  "LAK",
  "CBI",
  "BCD",
  "ACR",
  "GMH",
  "MMA",
  "GXL",
  "FCA",
]);

export function isWater(resName: string): boolean {
  return WATER_RESIDUES.has(resName);
}

export function isAminoAcid(resName: string): boolean {
  return STANDARD_AMINO_ACIDS.has(resName) || MODIFIED_AMINO_ACIDS.has(resName);
}

/** Residue names that belong to a biopolymer chain by name alone. */
export function isPolymerResidueName(resName: string): boolean {
  return isAminoAcid(resName) || NUCLEOTIDES.has(resName);
}

export function isIon(resName: string): boolean {
  return ION_RESIDUES.has(resName);
}

export function isBuffer(resName: string): boolean {
  return BUFFER_RESIDUES.has(resName);
}

export function isCofactor(resName: string): boolean {
  return COFACTOR_RESIDUES.has(resName);
}

export function isSugar(resName: string): boolean {
  return SUGAR_RESIDUES.has(resName);
}

/**
 * Intra-residue heavy-atom bonds of the standard amino acids, from the CCD definitions. Used by bond
 * perception so low-resolution side chains (e.g. 1osn at 3.2 Å) get their textbook connectivity
 * instead of whatever the distances suggest. Backbone bonds are added for every amino acid.
 */
export const BACKBONE_BONDS: readonly (readonly [string, string])[] = [
  ["N", "CA"],
  ["CA", "C"],
  ["C", "O"],
  ["C", "OXT"],
  ["CA", "CB"],
];

const SIDE_CHAINS: Readonly<Record<string, string>> = {
  ALA: "",
  ARG: "CB-CG CG-CD CD-NE NE-CZ CZ-NH1 CZ-NH2",
  ASN: "CB-CG CG-OD1 CG-ND2",
  ASP: "CB-CG CG-OD1 CG-OD2",
  CYS: "CB-SG",
  GLN: "CB-CG CG-CD CD-OE1 CD-NE2",
  GLU: "CB-CG CG-CD CD-OE1 CD-OE2",
  GLY: "",
  HIS: "CB-CG CG-ND1 ND1-CE1 CE1-NE2 NE2-CD2 CD2-CG",
  ILE: "CB-CG1 CB-CG2 CG1-CD1",
  LEU: "CB-CG CG-CD1 CG-CD2",
  LYS: "CB-CG CG-CD CD-CE CE-NZ",
  MET: "CB-CG CG-SD SD-CE",
  MSE: "CB-CG CG-SE SE-CE",
  PHE: "CB-CG CG-CD1 CG-CD2 CD1-CE1 CD2-CE2 CE1-CZ CE2-CZ",
  PRO: "CB-CG CG-CD CD-N",
  SER: "CB-OG",
  THR: "CB-OG1 CB-CG2",
  TRP: "CB-CG CG-CD1 CG-CD2 CD1-NE1 NE1-CE2 CE2-CD2 CE2-CZ2 CD2-CE3 CE3-CZ3 CZ2-CH2 CZ3-CH2",
  TYR: "CB-CG CG-CD1 CG-CD2 CD1-CE1 CD2-CE2 CE1-CZ CE2-CZ CZ-OH",
  VAL: "CB-CG1 CB-CG2",
};

const ALIASES: Readonly<Record<string, string>> = {
  HID: "HIS",
  HIE: "HIS",
  HIP: "HIS",
  HSD: "HIS",
  HSE: "HIS",
  HSP: "HIS",
  CYX: "CYS",
  CYM: "CYS",
  ASH: "ASP",
  GLH: "GLU",
  LYN: "LYS",
};

/** Template heavy-atom bonds of an amino acid by name, or null for residues without a template. */
export function templateBondsOf(resName: string): readonly (readonly [string, string])[] | null {
  const side = SIDE_CHAINS[ALIASES[resName] ?? resName];
  if (side === undefined) return null;
  const extra =
    side === "" ? [] : side.split(" ").map((pair) => pair.split("-") as unknown as readonly [string, string]);
  return [...BACKBONE_BONDS, ...extra];
}
