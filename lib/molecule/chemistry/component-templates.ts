/**
 * IDATM types of known ligand components by atom name, following the wwPDB Chemical Component Dictionary (CCD, CC0:
 * atom names, bond orders and hydrogens of each component id) and applied before any inference from bond lengths
 * (chemistry/idatm.ts). No npm package ships the CCD, so each component is written out here.
 *
 * Protonation is the CCD's, except that phosphate and carboxylate groups are ionised as at pH 7 (O3-, O2-), and
 * basic N are protonated where IDATM's rules protonate them whatever the geometry (spec §6.3 pass 6): an amine N
 * bonded only to sp3 C is N3+ (imatinib's two piperazine N alike, as IDATM types them), the N of an open-chain
 * amidine or guanidine are Ng+ (benzamidine, zanamivir). Ring N keep the CCD's neutral tautomer (methotrexate's and
 * trimethoprim's ring N, tacrine's N7 are N2 acceptors), as IDATM's ring typing prefers the uncharged assignment. A
 * primary sulfonamide NH2 is N3 (IDATM's rule for an N whose one neighbour is S); a sulfonamide N with two or three
 * heavy neighbours is planar, Npl, as on the monomer library's geometry. Halogens are left out: typed by element.
 * A type fixes the hydrogens an atom carries through its substituent count (an Npl with two heavy neighbours has
 * one H, an N2 none).
 */

/**
 * What the templates were checked against (tests/unit/molecule/component-templates-ccd.test.ts, fixture
 * tests/fixtures/ccd/components.json and its README):
 * - the CCD's own records, as the subset of components.cif that Debian's pymol-data 2.5.0 ships
 *   (/usr/share/pymol/data/chem_comp_bond-top100.cif), for ADP ATP ANP GDP GTP NAD NAP NDP FMN FAD HEM;
 * - the CCP4 monomer library (Debian refmac-dictionary 5.41, CCD atom names, Kekulé bond orders, all hydrogens) for
 *   ACP GNP GCP NAI H4B C2E GSP and the drugs (BEN GP6 ZMR G39 AZM 032 VIA BTN MTX TOP STI 1N1 AQ4 STU E20 THA), and
 *   as a second source for the others;
 * - the instances in the wwPDB files under ../shared/data/structures: ADP (1osn, 7ZTL), GCP (4dst), NDP (1n7g,
 *   1IA1), FMN (1aku), HEM (2q8q, 1G9V), GP6 (1bju), E20 (1eve), THA (1acj), 032 (3og7).
 * Every template atom name is a heavy atom of the component and every heavy atom but a metal or halogen is typed;
 * each type's implied hydrogen count equals the reference's except on the ionised P–OH and COOH oxygens and the
 * protonated N3+/Ng+; sp2 types sit on atoms with a double or aromatic bond; IDATM's base, sulfonamide and
 * aromatic-ring S/O rules hold.
 */
export const CCD_RELEASE =
  "wwPDB CCD atom nomenclature v3; checked against the CCD subset of pymol-data 2.5.0 and the CCP4 monomer library 5.41";

/** "NAME TYPE NAME TYPE ...", split into a map. */
function table(text: string): Map<string, string> {
  const parts = text.trim().split(/\s+/);
  const m = new Map<string, string>();
  for (let i = 0; i < parts.length; i += 2) m.set(parts[i]!, parts[i + 1]!);
  return m;
}

const RIBOSE = "O5' O3 C5' C3 C4' C3 O4' O3 C3' C3 O3' O3 C2' C3 O2' O3 C1' C3";
/** Adenine: N1, N3, N7 ring acceptors, N6 amino donor, N9 glycosidic (as the spec's A template). */
const adenine = (s: string) =>
  `N9${s} Npl C8${s} Car N7${s} N2 C5${s} Car C6${s} Car N6${s} Npl N1${s} N2 C2${s} Car N3${s} N2 C4${s} Car`;
/** Guanine (keto tautomer): N1–H and N2H2 donors, N3 and N7 acceptors, O6 carbonyl (as the spec's G template). */
const GUANINE = "N9 Npl C8 Car N7 N2 C5 Car C6 C2 O6 O2 N1 Npl C2 C2 N2 Npl N3 N2 C4 Car";
/** α and β phosphates of a diphosphate tail: O3A bridges PA–PB. */
const ALPHA_BETA = "PA Pac O1A O3- O2A O3- O3A O3 PB Pac O1B O3- O2B O3-";
/** β–γ bridge atom X (O3B in a triphosphate, N3B in an imido, C3B in a methylene analogue) and the γ phosphate. */
const gamma = (bridge: string) => `${bridge} PG Pac O1G O3- O2G O3- O3G O3-`;

/** Nicotinamide ring, oxidised (NAD+, NADP+): aromatic pyridinium, N1N cationic with no H. */
const NICOTINAMIDE_OXIDISED = "N1N N2+ C2N Car C3N Car C4N Car C5N Car C6N Car";
/** 1,4-Dihydronicotinamide (NADH, NADPH): N1N an enamine N with three heavy neighbours (no H, no charge), C4N sp3. */
const NICOTINAMIDE_REDUCED = "N1N Npl C2N C2 C3N C2 C4N C3 C5N C2 C6N C2";
/** Dinucleotide frame of NAD(P): adenosine (suffix A/B), pyrophosphate (PA–O3–PN), nicotinamide riboside (suffix D/N). */
const DINUCLEOTIDE =
  `${adenine("A")} C1B C3 C2B C3 O2B O3 C3B C3 O3B O3 C4B C3 O4B O3 C5B C3 O5B O3 ` +
  "PA Pac O1A O3- O2A O3- O3 O3 PN Pac O1N O3- O2N O3- O5D O3 C5D C3 C4D C3 O4D O3 C3D C3 O3D O3 C2D C3 O2D O3 C1D C3 C7N C2 O7N O2 N7N Npl";
/** 2'-phosphate of NADP(H) on O2B. */
const TWO_PRIME_PHOSPHATE = "P2B Pac O1X O3- O2X O3- O3X O3-";

/**
 * Oxidised isoalloxazine: N1 and N5 imine acceptors, N3–H imide donor, N10 tertiary (no H), O2 and O4 carbonyls.
 * `c4a`/`c5a` are the component's names of the ring-fusion atoms (FMN C4A/C5A, FAD C4X/C5X).
 */
const isoalloxazine = (c4a: string, c5a: string) =>
  `N1 N2 C2 C2 O2 O2 N3 Npl C4 C2 O4 O2 ${c4a} C2 N5 N2 ${c5a} Car C6 Car C7 Car C7M C3 C8 Car C8M C3 C9 Car C9A Car N10 Npl C10 C2`;
const RIBITYL = "C1' C3 C2' C3 O2' O3 C3' C3 O3' O3 C4' C3 O4' O3 C5' C3 O5' O3";

/** Protoporphyrin IX: four iron-bound pyrrole N (no H), conjugated ring carbons, two vinyls, two propionates. */
const HEME =
  "CHA Car CHB Car CHC Car CHD Car NA N2 NB N2 NC N2 ND N2 " +
  "C1A Car C2A Car C3A Car C4A Car CMA C3 CAA C3 CBA C3 CGA Cac O1A O2- O2A O2- " +
  "C1B Car C2B Car C3B Car C4B Car CMB C3 CAB C2 CBB C2 " +
  "C1C Car C2C Car C3C Car C4C Car CMC C3 CAC C2 CBC C2 " +
  "C1D Car C2D Car C3D Car C4D Car CMD C3 CAD C3 CBD C3 CGD Cac O1D O2- O2D O2-";

/**
 * (6R)-5,6,7,8-Tetrahydrobiopterin: pyrimidinone with N1=C2 and C4A=C8A, N3–H, 2-NH2; the reduced pyrazine ring's N5–H
 * and N8–H are secondary amines on sp2 carbons (donors, planar as anilines), C6 and C7 sp3; dihydroxypropyl side chain.
 */
/** Guanine of C2E's second guanosine: the CCD names its atoms with a suffix 1 (N11, O61, ...). */
const GUANINE_1 = "N91 Npl C81 Car N71 N2 C51 Car C61 C2 O61 O2 N11 Npl C21 C2 N21 Npl N31 N2 C41 Car";
/**
 * Cyclic di-GMP: two guanosines (primed ribose; ribose A) closed into a ring by two 3'–5' phosphodiesters, P1 between
 * O5' and O3A, P11 between O3' and O5A; their free O ionised.
 */
const CYCLIC_DI_GMP =
  `${GUANINE} ${RIBOSE} ${GUANINE_1} C1A C3 C2A C3 O2A O3 C3A C3 O3A O3 C4A C3 O4A O3 C5A C3 O5A O3 ` +
  "P1 Pac O1P O3- O2P O3- P11 Pac O11 O3- O21 O3-";

const TETRAHYDROBIOPTERIN =
  "N1 N2 C2 C2 N2 Npl N3 Npl C4 C2 O4 O2 C4A C2 C8A C2 N5 Npl C6 C3 C7 C3 N8 Npl C9 C3 O9 O3 C10 C3 O10 O3 C11 C3";

/** IDATM type of each heavy atom, by CCD component id and atom name. */
export const COMPONENT_TEMPLATES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  // Adenine nucleotides: ADP, ATP, AMP-PNP (N3B imido bridge, one N–H), AMP-PCP (C3B methylene bridge).
  ["ADP", table(`${adenine("")} ${RIBOSE} ${ALPHA_BETA} O3B O3-`)],
  ["ATP", table(`${adenine("")} ${RIBOSE} ${ALPHA_BETA} ${gamma("O3B O3")}`)],
  ["ANP", table(`${adenine("")} ${RIBOSE} ${ALPHA_BETA} ${gamma("N3B Npl")}`)],
  ["ACP", table(`${adenine("")} ${RIBOSE} ${ALPHA_BETA} ${gamma("C3B C3")}`)],
  // Guanine nucleotides: GDP, GTP, GMP-PNP, GMP-PCP.
  ["GDP", table(`${GUANINE} ${RIBOSE} ${ALPHA_BETA} O3B O3-`)],
  ["GTP", table(`${GUANINE} ${RIBOSE} ${ALPHA_BETA} ${gamma("O3B O3")}`)],
  ["GNP", table(`${GUANINE} ${RIBOSE} ${ALPHA_BETA} ${gamma("N3B Npl")}`)],
  ["GCP", table(`${GUANINE} ${RIBOSE} ${ALPHA_BETA} ${gamma("C3B C3")}`)],
  // GTPγS: the γ phosphate's S1G is a terminal S on P, typed S3- as IDATM types it.
  ["GSP", table(`${GUANINE} ${RIBOSE} ${ALPHA_BETA} O3B O3 PG Pac S1G S3- O2G O3- O3G O3-`)],
  ["C2E", table(CYCLIC_DI_GMP)],
  // Nicotinamide dinucleotides: NAD+, NADH, NADP+, NADPH.
  ["NAD", table(`${DINUCLEOTIDE} ${NICOTINAMIDE_OXIDISED}`)],
  ["NAI", table(`${DINUCLEOTIDE} ${NICOTINAMIDE_REDUCED}`)],
  ["NAP", table(`${DINUCLEOTIDE} ${NICOTINAMIDE_OXIDISED} ${TWO_PRIME_PHOSPHATE}`)],
  ["NDP", table(`${DINUCLEOTIDE} ${NICOTINAMIDE_REDUCED} ${TWO_PRIME_PHOSPHATE}`)],
  // Flavins, oxidised: FMN (5'-phosphate), FAD (5'-pyrophosphate to adenosine, O3P the P–O–PA bridge).
  ["FMN", table(`${isoalloxazine("C4A", "C5A")} ${RIBITYL} P Pac O1P O3- O2P O3- O3P O3-`)],
  [
    "FAD",
    table(
      `${isoalloxazine("C4X", "C5X")} ${RIBITYL} P Pac O1P O3- O2P O3- O3P O3 PA Pac O1A O3- O2A O3- O5B O3 C5B C3 C4B C3 O4B O3 C3B C3 O3B O3 C2B C3 O2B O3 C1B C3 ${adenine("A")}`,
    ),
  ],
  ["HEM", table(HEME)],
  ["H4B", table(TETRAHYDROBIOPTERIN)],
  // Benzamidine: amidinium N1/N2 both Ng+ (IDATM's amidine rule), NH2 donors.
  ["BEN", table("C C2 C1 Car C2 Car C3 Car C4 Car C5 Car C6 Car N1 Ng+ N2 Ng+")],
  // 1-(4-Amidinophenyl)-3-(4-chlorophenyl)urea (1bju): amidinium N1/N2 Ng+; urea N3/N4 N–H donors, O1 carbonyl.
  [
    "GP6",
    table(
      "C1 C2 C10 Car C11 Car C12 Car C13 Car C14 Car C2 Car C3 Car C4 Car C5 Car C6 Car C7 Car C8 C2 C9 Car N1 Ng+ N2 Ng+ N3 Npl N4 Npl O1 O2",
    ),
  ],
  // Zanamivir: guanidinium NE, NH1, NH2 Ng+; carboxylate; N5 acetamido; dihydropyran O6.
  [
    "ZMR",
    table(
      "C1 Cac C10 C2 C11 C3 C2 C2 C3 C2 C4 C3 C5 C3 C6 C3 C7 C3 C8 C3 C9 C3 CZ C2 N5 Npl NE Ng+ NH1 Ng+ NH2 Ng+ O10 O2 O1A O2- O1B O2- O6 O3 O7 O3 O8 O3 O9 O3",
    ),
  ],
  // Oseltamivir carboxylate: 5-amino N4 a protonated primary amine (N3+); carboxylate; N5 acetamido.
  [
    "G39",
    table(
      "C1 Cac C10 C2 C11 C3 C2 C2 C3 C3 C4 C3 C5 C3 C6 C3 C7 C2 C8 C3 C81 C3 C82 C3 C9 C3 C91 C3 N4 N3+ N5 Npl O10 O2 O1A O2- O1B O2- O7 O3",
    ),
  ],
  // Acetazolamide: sulfonamide S1 Son, its NH2 N1 N3 (two H), O O3-; thiadiazole S2 Sar, N2/N3 acceptors.
  ["AZM", table("C1 Car C2 Car C3 C2 C4 C3 N1 N3 N2 N2 N3 N2 N4 Npl O1 O3- O2 O3- O3 O2 S1 Son S2 Sar")],
  // Vemurafenib (3og7): N-aryl sulfonamide N27 planar N–H (Npl); azaindole N03 acceptor, N14 N–H; ketone O19.
  [
    "032",
    table(
      "C01 Car C02 Car C04 Car C05 Car C06 Car C07 Car C08 Car C09 Car C10 Car C11 Car C12 Car C15 Car C16 Car C17 C2 C18 Car C20 Car C21 Car C22 Car C23 Car C24 Car C31 C3 C32 C3 C33 C3 N03 N2 N14 Npl N27 Npl O19 O2 O29 O3- O30 O3- S28 Son",
    ),
  ],
  // Sildenafil: sulfonamide N14 planar tertiary N; N-methylpiperazine N17 N3+; pyrimidinone N22–H, N26 and pyrazole N29 acceptors.
  [
    "VIA",
    table(
      "C1 C3 C15 C3 C16 C3 C18 C3 C19 C3 C2 C3 C20 C3 C21 C2 C23 C2 C24 Car C25 Car C30 Car C31 C3 C32 C3 C33 C3 C34 C3 C4 Car C5 Car C6 Car C7 Car C8 Car C9 Car N14 Npl N17 N3+ N22 Npl N26 N2 N28 Npl N29 N2 O11 O3- O12 O3- O27 O2 O3 O3 S10 Son",
    ),
  ],
  // Biotin: ureido N1/N2 N–H donors, O3 carbonyl; thioether S1; carboxylate.
  [
    "BTN",
    table("C10 C3 C11 Cac C2 C3 C3 C2 C4 C3 C5 C3 C6 C3 C7 C3 C8 C3 C9 C3 N1 Npl N2 Npl O11 O2- O12 O2- O3 O2 S1 S3"),
  ],
  // Methotrexate: 2,4-diaminopteridine (N1, N3, N5, N8 acceptors, NA2/NA4 NH2 donors, neutral as in the CCD); N10 tertiary aniline N; glutamate's two carboxylates.
  [
    "MTX",
    table(
      "C C2 C11 Car C12 Car C13 Car C14 Car C15 Car C16 Car C2 Car C4 Car C4A Car C6 Car C7 Car C8A Car C9 C3 CA C3 CB C3 CD Cac CG C3 CM C3 CT Cac N Npl N1 N2 N10 Npl N3 N2 N5 N2 N8 N2 NA2 Npl NA4 Npl O O2 O1 O2- O2 O2- OE1 O2- OE2 O2-",
    ),
  ],
  // Trimethoprim: 2,4-diaminopyrimidine, ring N2/N5 acceptors (neutral as in the CCD), N4/N7 NH2 donors; three methoxy O.
  [
    "TOP",
    table(
      "C1 Car C10 Car C11 Car C12 Car C14 C3 C15 Car C17 C3 C18 Car C20 C3 C21 Car C3 Car C6 Car C8 Car C9 C3 N2 N2 N4 Npl N5 N2 N7 Npl O13 O3 O16 O3 O19 O3",
    ),
  ],
  // Imatinib: both piperazine N (N48, N51) N3+ as IDATM types any N bonded only to sp3 C; pyridine/pyrimidine N acceptors; N13, N21 N–H.
  [
    "STI",
    table(
      "C1 Car C11 Car C12 Car C14 Car C15 Car C16 Car C17 Car C18 Car C19 Car C2 Car C20 C3 C22 C2 C23 Car C25 Car C26 Car C27 Car C28 Car C29 Car C4 Car C46 C3 C49 C3 C5 Car C50 C3 C52 C3 C53 C3 C54 C3 C6 Car C7 Car C9 Car N10 N2 N13 Npl N21 Npl N3 N2 N48 N3+ N51 N3+ N8 N2 O29 O2",
    ),
  ],
  // Dasatinib: thiazole S Sar and N1 acceptor; N, N2 N–H donors; N6 (hydroxyethyl piperazine) N3+, N5 on the pyrimidine planar.
  [
    "1N1",
    table(
      "C Car C1 Car C10 C3 C11 Car C12 Car C13 Car C14 Car C15 C3 C16 C3 C17 C3 C18 C3 C19 C3 C2 Car C20 C3 C21 C3 C3 C2 C4 Car C5 Car C6 Car C7 Car C8 Car C9 Car N Npl N1 N2 N2 Npl N3 N2 N4 N2 N5 Npl N6 N3+ O O2 O1 O3 S Sar",
    ),
  ],
  // Erlotinib: quinazoline N2/N3 acceptors, anilino N1–H (the amino tautomer, as the CCD); terminal alkyne C1≡C2.
  [
    "AQ4",
    table(
      "C1 C1 C10 C3 C11 C3 C12 C3 C13 Car C14 C3 C15 C3 C16 C3 C17 Car C18 Car C19 Car C2 C1 C20 Car C21 Car C22 Car C3 Car C4 Car C5 Car C6 Car C7 Car C8 Car C9 Car N1 Npl N2 N2 N3 N2 O1 O3 O2 O3 O3 O3 O4 O3",
    ),
  ],
  // Staurosporine: indolocarbazole N2/N3 glycosidic (no H), lactam N1–H, O5 carbonyl; methylamino N4 N3+.
  [
    "STU",
    table(
      "C1 Car C10 Car C11 Car C12 Car C13 Car C14 Car C15 Car C16 Car C17 Car C18 Car C19 Car C2 Car C20 Car C21 C3 C22 C3 C23 C3 C24 C3 C25 C3 C26 C3 C27 C3 C28 C3 C3 Car C4 Car C5 Car C6 Car C7 Car C8 C2 C9 C3 N1 Npl N2 Npl N3 Npl N4 N3+ O4 O3 O5 O2 O6 O3",
    ),
  ],
  // Donepezil (1eve): piperidine N14 N3+; indanone O24 carbonyl; methoxy O25/O27.
  [
    "E20",
    table(
      "C1 Car C10 C3 C11 C3 C12 C3 C13 C3 C15 C3 C16 C3 C17 C3 C18 Car C19 Car C2 Car C20 Car C21 Car C22 Car C23 Car C26 C3 C28 C3 C3 Car C4 Car C5 Car C6 Car C7 C2 C8 C3 C9 C3 N14 N3+ O24 O2 O25 O3 O27 O3",
    ),
  ],
  // Tacrine (1acj): ring N7 an acceptor (neutral as in the CCD and IDATM's ring typing), N15 NH2 donor.
  [
    "THA",
    table("C1 Car C10 Car C11 C3 C12 C3 C13 C3 C14 C3 C2 Car C3 Car C4 Car C5 Car C6 Car C8 Car C9 Car N15 Npl N7 N2"),
  ],
]);

/** Substituents (heavy neighbours + hydrogens) of the types templates use; an atom with more heavy neighbours is not this component. */
export const SUBSTITUENTS: Readonly<Record<string, number>> = {
  C3: 4,
  C2: 3,
  Car: 3,
  Cac: 3,
  Npl: 3,
  N2: 2,
  "N2+": 3,
  O3: 2,
  "O3-": 1,
  O2: 1,
  "O2-": 1,
  Pac: 4,
  "S3-": 1,
  C1: 2,
  N3: 3,
  "N3+": 4,
  "Ng+": 3,
  S3: 2,
  Sar: 2,
  Son: 4,
};

/**
 * The template types of one residue's atoms, or null when the residue is not the component its name says: an atom
 * name the CCD does not list for it, another element, or more heavy neighbours than the type allows.
 */
export function componentTypes(
  resName: string,
  atoms: readonly { name: string; element: string; heavyNeighbours: number }[],
): (string | null)[] | null {
  const template = COMPONENT_TEMPLATES.get(resName);
  if (!template) return null;
  const out: (string | null)[] = [];
  for (const a of atoms) {
    if (a.element === "H") {
      out.push(null);
      continue;
    }
    const t = template.get(a.name);
    if (t === undefined) {
      // Metals and other atoms outside the organic frame (the heme iron) are typed by element, as the computed pass does.
      if (a.element !== "C" && a.element !== "N" && a.element !== "O" && a.element !== "P" && a.element !== "S") {
        out.push(null);
        continue;
      }
      return null;
    }
    if (t[0] !== a.element || a.heavyNeighbours > SUBSTITUENTS[t]!) return null;
    out.push(t);
  }
  return out;
}
