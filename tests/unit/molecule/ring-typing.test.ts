/**
 * Ring and conjugated-system typing (spec §6.3 pass 4.5, ChimeraX's bond-order enumeration) on the
 * rings where a shape rule goes wrong: guanine N1–H / C2=N3, adenine, flavin. Expected types are the
 * spec's (§6.2 guanine/adenine templates, §6.5 nucleotide roles) and were checked by hand against the
 * bond lengths: guanine's two Kekulé structures tie on aromaticity (the 6-ring carries C6=O6, so only the
 * imidazole is 4n+2) and on charge, and the bond-length fit puts the double bond on the shorter of
 * N1–C2 / C2–N3.
 *
 * The guanine fixture is hand-made (9-methylguanine in the xy plane, from the ring bond lengths and angles
 * of Clowney et al., J. Am. Chem. Soc. 118 (1996) 509, with N1–C2 1.41 Å and C2–N3 1.34 Å as measured in
 * the BGO ligand the audit reported) with an aspartate whose OD1 sits on N1's external bisector at 2.84 Å
 * (D–H···A 177° for the inferred H): the guanine-recognising bond the old typing missed.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { type HBondContext, prepareHBondContext } from "@/lib/molecule/hbond-context";
import { findHBonds } from "@/lib/molecule/hbonds";
import { formatParseError, parseStructure } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import type { Atom } from "@/lib/molecule/types";
import { describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import { makeAtom } from "./atoms";

const GUANINE_BGO: readonly (readonly [string, number, number])[] = [
  ["N1", 0.0, 0.0],
  ["C2", 1.409, -0.044],
  ["N3", 2.111, 1.098],
  ["C4", 1.352, 2.215],
  ["C5", -0.023, 2.32],
  ["C6", -0.8, 1.133],
  ["O6", -2.032, 1.018],
  ["N2", 1.964, -1.264],
  ["N9", 1.818, 3.507],
  ["N7", -0.415, 3.652],
  ["C8", 0.707, 4.318],
  ["C1'", 3.22, 3.915],
];
/**
 * Hand-made lumiflavin (isoalloxazine with N10, C7 and C8 methyls): three fused regular hexagons of 1.40 Å in
 * the xy plane, C=O 1.23 Å, N10–C1' 1.47 Å, ring methyls 1.50 Å, every exocyclic bond radial.
 */
const LUMIFLAVIN: readonly (readonly [string, number, number])[] = [
  ["N1", 2.425, 1.4],
  ["C2", 3.637, 0.7],
  ["O2", 4.703, 1.315],
  ["N3", 3.637, -0.7],
  ["C4", 2.425, -1.4],
  ["O4", 2.425, -2.63],
  ["C4A", 1.212, -0.7],
  ["N5", 0.0, -1.4],
  ["C5A", -1.212, -0.7],
  ["C6", -2.425, -1.4],
  ["C7", -3.637, -0.7],
  ["C7M", -4.936, -1.45],
  ["C8", -3.637, 0.7],
  ["C8M", -4.936, 1.45],
  ["C9", -2.425, 1.4],
  ["C9A", -1.212, 0.7],
  ["N10", 0.0, 1.4],
  ["C10", 1.212, 0.7],
  ["C1'", 0.0, 2.87],
];
const ASPARTATE: readonly (readonly [string, number, number])[] = [
  ["OD1", -1.257, -2.547],
  ["CG", -2.493, -2.736],
  ["OD2", -3.027, -3.866],
  ["CB", -3.402, -1.518],
  ["CA", -4.888, -1.881],
];

function ligand(rows: readonly (readonly [string, number, number])[], resName = "LIG"): Atom[] {
  return rows.map(([name, x, y], i) =>
    makeAtom({ name, element: name[0]!, x, y, z: 0, resName, chain: "Z", resSeq: 999, hetero: true, serial: 100 + i }),
  );
}
const aspartate = () =>
  ASPARTATE.map(([name, x, y], i) =>
    makeAtom({ name, element: name[0]!, x, y, z: 0, resName: "ASP", resSeq: 52, serial: 1 + i }),
  );

function typesOf(ctx: HBondContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = ctx.pocketCount; i < ctx.atoms.length; i++) out[ctx.atoms[i]!.name] = ctx.graph.types[i]!;
  return out;
}
function rolesOf(ctx: HBondContext, name: string): { donor: string | null; acceptor: string | null } {
  const i = ctx.atoms.findIndex((a, k) => k >= ctx.pocketCount && a.name === name);
  return { donor: ctx.donors[i]?.group ?? null, acceptor: ctx.acceptors[i]?.group ?? null };
}

/** Moves C2 along the N1–N3 line so that N1–C2 and C2–N3 swap lengths (N1=C2 becomes the shorter bond). */
function swapN1N3Lengths(rows: readonly (readonly [string, number, number])[]): [string, number, number][] {
  const at = (n: string) => rows.find((r) => r[0] === n)!;
  const [, x1, y1] = at("N1");
  const [, x3, y3] = at("N3");
  const [, x2, y2] = at("C2");
  // reflect C2 across the perpendicular bisector of N1–N3
  const mx = (x1 + x3) / 2;
  const my = (y1 + y3) / 2;
  const ux = (x3 - x1) / Math.hypot(x3 - x1, y3 - y1);
  const uy = (y3 - y1) / Math.hypot(x3 - x1, y3 - y1);
  const t = (x2 - mx) * ux + (y2 - my) * uy;
  return rows.map(([n, x, y]) => (n === "C2" ? [n, x2 - 2 * t * ux, y2 - 2 * t * uy] : [n, x, y]));
}

describe("guanine (hand-made 9-methylguanine, BGO bond lengths)", () => {
  const ctx = prepareHBondContext({ pocketAtoms: aspartate(), ligandAtoms: ligand(GUANINE_BGO) });

  it("types N1 as N–H (Npl) and N3 as N2, as in ChimeraX's guanine template", () => {
    const t = typesOf(ctx);
    expect({ N1: t.N1, N3: t.N3, N7: t.N7, N9: t.N9, N2: t.N2, O6: t.O6, C2: t.C2, C6: t.C6 }).toEqual({
      N1: "Npl",
      N3: "N2",
      N7: "N2",
      N9: "Npl",
      N2: "Npl",
      O6: "O2",
      C2: "C2",
      C6: "C2",
    });
    // the imidazole is aromatic (4n+2 with the N9 lone pair); the 6-ring is not (C6=O6 is exocyclic)
    expect([t.C4, t.C5, t.C8]).toEqual(["Car", "Car", "Car"]);
  });

  it("gives N1 a donor group and N3/N7 ring-acceptor groups, not the other way round", () => {
    expect(rolesOf(ctx, "N1")).toEqual({ donor: "D19 generic planar N", acceptor: null });
    expect(rolesOf(ctx, "N3")).toEqual({ donor: null, acceptor: "A27 N in asymmetric 6-ring" });
    expect(rolesOf(ctx, "N7").acceptor).toBe("A28 N in asymmetric 5-ring");
    expect(rolesOf(ctx, "N2").donor).toBe("D19 generic planar N");
  });

  it("finds the guanine-recognising ASP OD1 ← N1 bond (2.84 Å, D–H···A 177°)", () => {
    const bonds = findHBonds({ pocketAtoms: aspartate(), ligandAtoms: ligand(GUANINE_BGO) });
    const n1 = bonds.find((b) => b.ligandAtom.name === "N1" && b.proteinAtom.name === "OD1");
    expect(n1).toBeDefined();
    expect(n1!.ligandIsDonor).toBe(true);
    expect(n1!.distanceA).toBeCloseTo(2.84, 2);
    expect(n1!.donorAngleDeg!).toBeGreaterThan(176.5);
    expect(n1!.donorAngleDeg!).toBeLessThan(177.5);
    expect(n1!.donorType).toBe("Npl D19 generic planar N");
  });

  it("follows the bond lengths when they say the opposite tautomer (N1=C2 shorter): N1 becomes N2, N3 the N–H", () => {
    const swapped = prepareHBondContext({
      pocketAtoms: aspartate(),
      ligandAtoms: ligand(swapN1N3Lengths(GUANINE_BGO)),
    });
    const t = typesOf(swapped);
    expect([t.N1, t.N3]).toEqual(["N2", "Npl"]);
  });

  it("a standard nucleotide residue (DG) is typed from its template, whatever the bond lengths", () => {
    const dg = prepareHBondContext({ pocketAtoms: [], ligandAtoms: ligand(swapN1N3Lengths(GUANINE_BGO), "DG") });
    const t = typesOf(dg);
    expect([t.N1, t.N3, t.N7, t.O6, t.C2, t.C4]).toEqual(["Npl", "N2", "N2", "O2", "C2", "Car"]);
  });
});

describe("flavin (hand-made lumiflavin)", () => {
  const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: ligand(LUMIFLAVIN) });
  // Hand-derived from the enumeration rules: C2=O2 and C4=O4 are fixed double, so the pyrimidine ring can never
  // be 4n+2 and ChimeraX adds the charged assignments. The neutral one (N1=C10, C4A=N5) leaves the middle ring at
  // 7 π electrons; the charged one (N10+=C10, C4A=N5, N1 single-single) makes it a 6 π ring, so criterion (1),
  // most atoms in 4n+2 rings (12 against 6), picks it: N10 N2+, N1 and N3 N–H, N5 N2.
  it("types the isoalloxazine as ChimeraX's enumeration does: N1/N3 N–H, N5 N2, N10 N2+, O2/O4 carbonyls", () => {
    const t = typesOf(ctx);
    expect([t.N1, t.N3, t.N5, t.N10, t.O2, t.O4]).toEqual(["Npl", "Npl", "N2", "N2+", "O2", "O2"]);
    expect([t.C5A, t.C6, t.C7, t.C8, t.C9, t.C9A, t.C10, t.C4A]).toEqual([
      "Car",
      "Car",
      "Car",
      "Car",
      "Car",
      "Car",
      "Car",
      "Car",
    ]);
    expect([t.C2, t.C4]).toEqual(["C2", "C2"]);
  });
  it("N1 and N3 donate (generic planar N), N5 accepts (N in a symmetric 6-ring), N10 is neither", () => {
    expect(rolesOf(ctx, "N3")).toEqual({ donor: "D19 generic planar N", acceptor: null });
    expect(rolesOf(ctx, "N1")).toEqual({ donor: "D19 generic planar N", acceptor: null });
    expect(rolesOf(ctx, "N5")).toEqual({ donor: null, acceptor: "A25 N in symmetric 6-ring" });
    expect(rolesOf(ctx, "N10")).toEqual({ donor: null, acceptor: null });
    expect(rolesOf(ctx, "O2").acceptor).toBe("generic O2");
  });
});

/** The ligand of a shared PDB entry, typed with its pocket as findComplexHBonds types it. */
/** `renameTo` gives the ligand a residue name with no component template, so its types come from inference alone. */
function sharedLigandContext(entry: string, ligandId: string, renameTo?: string): HBondContext {
  const file = sharedStructurePath("plip-test-pdb", `${entry}.pdb`);
  const parsed = parseStructure(fs.readFileSync(file, "utf8"), `${entry}.pdb`);
  if (!parsed.ok) throw new Error(formatParseError(parsed.error));
  const prepared = prepareComplex(parsed.structure, { ligandId });
  if (!prepared.ok) throw new Error(prepared.reason);
  const c = prepared.complex;
  const ligandAtoms =
    renameTo === undefined ? c.ligand.atoms : c.ligand.atoms.map((a) => ({ ...a, resName: renameTo }));
  return prepareHBondContext({
    pocketAtoms: c.pocketAtoms,
    ligandAtoms,
    ligandBonds: c.ligand.bonds,
    ligandHasBondOrders: c.ligand.hasBondOrders,
  });
}

describeWithShared(
  "ring typing on shared ligands (PDB HETATM: typed from their coordinates, as ChimeraX types non-template residues)",
  () => {
    it("guanine of GDP-rhamnose GDR (1n7g; N1–C2 1.372 Å, C2–N3 1.326 Å): N1 N–H donor, N3 and N7 acceptors", () => {
      const ctx = sharedLigandContext("1n7g", "GDR:A:801");
      const t = typesOf(ctx);
      expect([t.N1, t.N2, t.N3, t.N7, t.N9, t.O6]).toEqual(["Npl", "Npl", "N2", "N2", "Npl", "O2"]);
      expect(rolesOf(ctx, "N1")).toEqual({ donor: "D19 generic planar N", acceptor: null });
      expect(rolesOf(ctx, "N3")).toEqual({ donor: null, acceptor: "A27 N in asymmetric 6-ring" });
    });

    it("guanine of GCP renamed (4dst; N1–C2 1.346 Å, C2–N3 1.353 Å): without a template the bond-length tie-break puts the double bond on N1–C2", () => {
      // ChimeraX has no template for a ligand named GCP; its enumeration finds the two guanine Kekulé structures
      // tied on aromaticity and charge and keeps the one with double bonds on the shorter bonds. GCP itself is typed from
      // its component template (component-templates.test.ts), which is why the residue is renamed here.
      const t = typesOf(sharedLigandContext("4dst", "GCP:A:202", "UNL"));
      expect([t.N1, t.N3, t.N7]).toEqual(["N2", "Npl", "N2"]);
    });

    it("adenine of NADPH (NDP, 1n7g): aromatic purine, N1/N3/N7 acceptors, N6 aniline-type donor", () => {
      const ctx = sharedLigandContext("1n7g", "NDP:A:701");
      const t = typesOf(ctx);
      expect([t.N1A, t.N3A, t.N7A, t.N9A, t.N6A]).toEqual(["N2", "N2", "N2", "Npl", "Npl"]);
      expect([t.C2A, t.C4A, t.C5A, t.C6A, t.C8A]).toEqual(["Car", "Car", "Car", "Car", "Car"]);
      expect(rolesOf(ctx, "N1A").acceptor).toBe("A27 N in asymmetric 6-ring");
      expect(rolesOf(ctx, "N6A").donor).toBe("D7 aniline NH2");
    });

    it("flavin of FMN renamed (1aku): C2–O2 1.346 Å and C4–O4 1.390 Å are too long for C=O (pass 3, > 1.30 Å), so without a template the pyrimidine types as a hydroxy-aromatic ring", () => {
      const ctx = sharedLigandContext("1aku", "FMN:A:150", "UNL");
      const t = typesOf(ctx);
      expect([t.O2, t.O4, t.C2, t.C4]).toEqual(["O3", "O3", "Car", "Car"]);
      expect([t.N1, t.N3, t.N5]).toEqual(["N2", "N2", "N2"]);
      expect(rolesOf(ctx, "O2").acceptor).toBe("A20 phenol");
    });
  },
);
