// needs-shared-structures: the real-structure cases read ../shared/data/structures
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { COMPONENT_TEMPLATES, componentTypes } from "@/lib/molecule/chemistry/component-templates";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { type HBondContext, prepareHBondContext } from "@/lib/molecule/hbond-context";
import { donorHydrogens } from "@/lib/molecule/hbond-hydrogens";
import { findComplexHBonds } from "@/lib/molecule/hbonds";
import { describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";

/** Heavy-atom formulas of the CCD entries (C, N, O, P, S; HEM's Fe and the drugs' halogens are typed by element and so not in their templates). */
const FORMULAS: Record<string, string> = {
  ADP: "C10 N5 O10 P2",
  ATP: "C10 N5 O13 P3",
  ANP: "C10 N6 O12 P3",
  ACP: "C11 N5 O12 P3",
  GDP: "C10 N5 O11 P2",
  GTP: "C10 N5 O14 P3",
  GNP: "C10 N6 O13 P3",
  GCP: "C11 N5 O13 P3",
  GSP: "C10 N5 O13 P3 S1",
  C2E: "C20 N10 O14 P2",
  NAD: "C21 N7 O14 P2",
  NAI: "C21 N7 O14 P2",
  NAP: "C21 N7 O17 P3",
  NDP: "C21 N7 O17 P3",
  FMN: "C17 N4 O9 P1",
  FAD: "C27 N9 O15 P2",
  HEM: "C34 N4 O4",
  H4B: "C9 N5 O3",
  // Drugs (halogens, typed by element, left out): GP6 C14H13ClN4O, 032 (vemurafenib) C23H18ClF2N3O3S, 1N1 (dasatinib)
  // C22H26ClN7O2S.
  BEN: "C7 N2",
  GP6: "C14 N4 O1",
  ZMR: "C12 N4 O7",
  G39: "C14 N2 O4",
  AZM: "C4 N4 O3 S2",
  "032": "C23 N3 O3 S1",
  VIA: "C22 N6 O4 S1",
  BTN: "C10 N2 O3 S1",
  MTX: "C20 N8 O5",
  TOP: "C14 N4 O3",
  STI: "C29 N7 O1",
  "1N1": "C22 N7 O2 S1",
  AQ4: "C22 N3 O4",
  STU: "C28 N4 O3",
  E20: "C24 N1 O3",
  THA: "C13 N2",
};

function formulaOf(template: ReadonlyMap<string, string>): string {
  const counts = new Map<string, number>();
  for (const t of template.values()) counts.set(t[0]!, (counts.get(t[0]!) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([e, n]) => `${e}${n}`)
    .join(" ");
}

/** "NAME:TYPE" of the named atoms. */
const typesOf = (resName: string, names: string[]) =>
  names.map((n) => `${n}:${COMPONENT_TEMPLATES.get(resName)!.get(n)}`);

describe("component templates follow the CCD entries", () => {
  it("cover exactly these components", () => {
    expect([...COMPONENT_TEMPLATES.keys()].sort()).toEqual(Object.keys(FORMULAS).sort());
  });
  it.each(Object.entries(FORMULAS))("%s: one typed atom per heavy atom of the CCD formula (%s)", (id, formula) => {
    expect(formulaOf(COMPONENT_TEMPLATES.get(id)!)).toBe(formula);
  });
  it("guanine nucleotides: N1–H and N2H2 donors, N3 and N7 acceptors, O6 carbonyl", () => {
    for (const id of ["GDP", "GTP", "GNP", "GCP", "GSP", "C2E"])
      expect(typesOf(id, ["N1", "N2", "N3", "N7", "O6"])).toEqual(["N1:Npl", "N2:Npl", "N3:N2", "N7:N2", "O6:O2"]);
    // C2E's second guanine, its atoms suffixed 1
    expect(typesOf("C2E", ["N11", "N21", "N31", "N71", "O61"])).toEqual([
      "N11:Npl",
      "N21:Npl",
      "N31:N2",
      "N71:N2",
      "O61:O2",
    ]);
  });
  it("adenine nucleotides: N1, N3, N7 acceptors, N6 amino; bridges O3A (and O3B, N3B imido, C3B methylene)", () => {
    for (const id of ["ADP", "ATP", "ANP", "ACP"])
      expect(typesOf(id, ["N1", "N3", "N7", "N6", "O3A"])).toEqual(["N1:N2", "N3:N2", "N7:N2", "N6:Npl", "O3A:O3"]);
    expect(typesOf("ADP", ["O3B"])).toEqual(["O3B:O3-"]);
    expect(typesOf("ATP", ["O3B", "O3G"])).toEqual(["O3B:O3", "O3G:O3-"]);
    expect(typesOf("ANP", ["N3B"])).toEqual(["N3B:Npl"]);
    expect(typesOf("ACP", ["C3B"])).toEqual(["C3B:C3"]);
  });
  it("GTPγS: O3B bridges PB–PG, S1G a terminal S on PG (S3-), O2G/O3G ionised; C2E's phosphodiester O ionised", () => {
    expect(typesOf("GSP", ["O3B", "PG", "S1G", "O2G", "O3G"])).toEqual([
      "O3B:O3",
      "PG:Pac",
      "S1G:S3-",
      "O2G:O3-",
      "O3G:O3-",
    ]);
    expect(typesOf("C2E", ["P1", "O1P", "O2P", "P11", "O11", "O21", "O3'", "O5A"])).toEqual([
      "P1:Pac",
      "O1P:O3-",
      "O2P:O3-",
      "P11:Pac",
      "O11:O3-",
      "O21:O3-",
      "O3':O3",
      "O5A:O3",
    ]);
  });
  it("nicotinamides: NAD+/NADP+ ring N cationic aromatic; NADH/NADPH N1N neutral, C4N sp3", () => {
    for (const id of ["NAD", "NAP"])
      expect(typesOf(id, ["N1N", "C4N", "N7N", "O7N"])).toEqual(["N1N:N2+", "C4N:Car", "N7N:Npl", "O7N:O2"]);
    for (const id of ["NAI", "NDP"])
      expect(typesOf(id, ["N1N", "C4N", "N7N", "O7N"])).toEqual(["N1N:Npl", "C4N:C3", "N7N:Npl", "O7N:O2"]);
    for (const id of ["NAP", "NDP"])
      expect(typesOf(id, ["O2B", "P2B", "O1X"])).toEqual(["O2B:O3", "P2B:Pac", "O1X:O3-"]);
  });
  it("flavins (oxidised): N1, N5 acceptors, N3–H donor, N10 tertiary; FAD's O3P bridges P and PA", () => {
    expect(typesOf("FMN", ["N1", "N3", "N5", "N10", "O2", "O4", "O3P"])).toEqual([
      "N1:N2",
      "N3:Npl",
      "N5:N2",
      "N10:Npl",
      "O2:O2",
      "O4:O2",
      "O3P:O3-",
    ]);
    expect(typesOf("FAD", ["N1", "N3", "N5", "N10", "C4X", "O3P", "N6A"])).toEqual([
      "N1:N2",
      "N3:Npl",
      "N5:N2",
      "N10:Npl",
      "C4X:C2",
      "O3P:O3",
      "N6A:Npl",
    ]);
  });
  it("tetrahydrobiopterin: ring N5–H and N8–H amines and N3–H donors, N1 the one ring acceptor", () => {
    expect(typesOf("H4B", ["N1", "N2", "N3", "N5", "N8", "O4", "C6", "C7"])).toEqual([
      "N1:N2",
      "N2:Npl",
      "N3:Npl",
      "N5:Npl",
      "N8:Npl",
      "O4:O2",
      "C6:C3",
      "C7:C3",
    ]);
  });
  it("a residue whose atoms do not fit its name is left to inference", () => {
    expect(componentTypes("HEM", [{ name: "NA", element: "N", heavyNeighbours: 2 }])).toEqual(["N2"]);
    expect(componentTypes("HEM", [{ name: "N1", element: "N", heavyNeighbours: 2 }])).toBeNull();
    expect(componentTypes("HEM", [{ name: "NA", element: "C", heavyNeighbours: 2 }])).toBeNull();
    expect(componentTypes("HEM", [{ name: "NA", element: "N", heavyNeighbours: 3 }])).toBeNull();
    expect(componentTypes("HEM", [{ name: "FE", element: "Fe", heavyNeighbours: 0 }])).toEqual([null]);
    expect(componentTypes("LIG", [{ name: "NA", element: "N", heavyNeighbours: 2 }])).toBeNull();
  });
});

function context(file: string, ligandId: string): HBondContext & { name: (n: string) => number } {
  const parsed = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", file), "utf8"), file);
  if (!parsed.ok) throw new Error(formatParseError(parsed.error));
  const prepared = prepareComplex(parsed.structure, { ligandId });
  if (!prepared.ok) throw new Error(prepared.reason);
  const c = prepared.complex;
  const ctx = prepareHBondContext({ pocketAtoms: c.pocketAtoms, ligandAtoms: c.ligand.atoms });
  return { ...ctx, name: (n) => ctx.pocketCount + c.ligand.atoms.findIndex((a) => a.name === n) };
}

/** "NAME TYPE donor(H count)|- acceptor|-" of ligand atoms. */
function roles(ctx: HBondContext & { name: (n: string) => number }, names: string[]): string[] {
  return names.map((n) => {
    const i = ctx.name(n);
    return `${n} ${ctx.graph.types[i]} ${ctx.donors[i] ? `donor(${donorHydrogens(ctx, i).length})` : "-"} ${ctx.acceptors[i] ? "acceptor" : "-"}`;
  });
}

describeWithShared("templates on real structures (where bond lengths misled the inference)", () => {
  it("4dst GCP: N1 is the N–H donor and N3 the acceptor, although N1–C2 (1.346 Å) is shorter than C2–N3 (1.353 Å)", () => {
    const ctx = context("4dst.pdb", "GCP:A:202");
    expect(roles(ctx, ["N1", "N2", "N3", "N7", "O6"])).toEqual([
      "N1 Npl donor(1) -",
      "N2 Npl donor(2) -",
      "N3 N2 - acceptor",
      "N7 N2 - acceptor",
      "O6 O2 - acceptor",
    ]);
  });
  it("1n7g NDP: the dihydronicotinamide N1N is a neutral N with no H (was an aromatic cation N2+)", () => {
    const ctx = context("1n7g.pdb", "NDP:A:701");
    expect(roles(ctx, ["N1N", "N7N", "O7N", "N6A", "N1A"])).toEqual([
      "N1N Npl - -",
      "N7N Npl donor(2) -",
      "O7N O2 - acceptor",
      "N6A Npl donor(2) acceptor",
      "N1A N2 - acceptor",
    ]);
  });
  it("1aku FMN: carbonyl O2/O4 are acceptors only (were typed hydroxyls), N3–H donor, N1/N5 acceptors, N10 neither", () => {
    const ctx = context("1aku.pdb", "FMN:A:150");
    expect(roles(ctx, ["N1", "O2", "N3", "O4", "N5", "N10"])).toEqual([
      "N1 N2 - acceptor",
      "O2 O2 - acceptor",
      "N3 Npl donor(1) -",
      "O4 O2 - acceptor",
      "N5 N2 - acceptor",
      "N10 Npl - -",
    ]);
  });
  it("2q8q HEM: the four iron-bound pyrrole N are alike (ND was an N–H donor type), propionates ionised", () => {
    const ctx = context("2q8q.pdb", "HEM:A:300");
    expect(roles(ctx, ["NA", "NB", "NC", "ND", "O1A", "O2D"])).toEqual([
      "NA N2 - acceptor",
      "NB N2 - acceptor",
      "NC N2 - acceptor",
      "ND N2 - acceptor",
      "O1A O2- - acceptor",
      "O2D O2- - acceptor",
    ]);
  });
  it("1osn ADP (chain B; chain A's ADP has its phosphates only): adenine and phosphate roles", () => {
    const ctx = context("1osn.pdb", "ADP:B:1400");
    expect(roles(ctx, ["N6", "N1", "O3A", "O3B", "O2'"])).toEqual([
      "N6 Npl donor(2) acceptor",
      "N1 N2 - acceptor",
      "O3A O3 - acceptor",
      "O3B O3- - acceptor",
      "O2' O3 donor(0) acceptor",
    ]);
  });
  it("4dst GCP: the guanine-recognising Asp 119 OD1 ··· H–N1 bond (2.66 Å) is in the key", () => {
    const parsed = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "4dst.pdb"), "utf8"), "4dst.pdb");
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const prepared = prepareComplex(parsed.structure, { ligandId: "GCP:A:202" });
    if (!prepared.ok) throw new Error(prepared.reason);
    const n1 = findComplexHBonds(prepared.complex).filter((b) => b.ligandAtom.name === "N1");
    expect(
      n1.map(
        (b) =>
          `${b.proteinAtom.resName} ${b.proteinAtom.resSeq} ${b.proteinAtom.name} ${b.ligandIsDonor ? "←" : "→"} N1 ${b.distanceA.toFixed(2)}`,
      ),
    ).toEqual(["ASP 119 OD1 ← N1 2.66"]);
  });
});
