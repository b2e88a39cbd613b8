/**
 * findHBonds with ChimeraX's criteria (../shared/spec/hbond-criteria.md), on geometries built by
 * hand from the spec's tables: accepted and rejected cases for several donor groups (backbone N–H
 * D13, hydroxyl D5, primary ammonium D4, amide NH2 D6) and acceptor groups (ketone A7, carboxylate A3,
 * pyridine-type ring N A25, hydroxyl A15), strict (slop 0) and relaxed (0.4 Å / 20°, the default).
 * Each limit is probed just inside and just outside, so a wrong table value or relaxation fails.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_HBOND_CRITERIA, STRICT_HBOND_CRITERIA } from "@/lib/molecule/hbond-geometry";
import { type FindHBondsInput, prepareHBondContext } from "@/lib/molecule/hbond-context";
import { tetrahedralPositions, trigonalPositions } from "@/lib/molecule/hbond-hydrogens";
import { findHBonds, formatHBondsT9 } from "@/lib/molecule/hbonds";
import { parsePdb, parseSdf } from "@/lib/molecule/parse";
import { type Vec3, addVec, normalizeVec, scaleVec, subtractVec } from "@/lib/molecule/geometry/vec3";
import type { Atom } from "@/lib/molecule/types";
import { itWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import { makeAtom } from "./atoms";

const rad = (deg: number) => (deg * Math.PI) / 180;
const polar = (deg: number, r: number): Vec3 => [r * Math.cos(rad(deg)), r * Math.sin(rad(deg)), 0];
const at = (p: Vec3) => ({ x: p[0], y: p[1], z: p[2] });
/** From `from`, the point at distance d whose direction makes angle `deg` with `axis` (rotated in the xy plane). */
function rotated(from: Vec3, axis: Vec3, deg: number, d: number): Vec3 {
  const base = Math.atan2(axis[1], axis[0]) + rad(deg);
  return addVec(from, [d * Math.cos(base), d * Math.sin(base), 0]);
}

let serial = 100;
const lig = (name: string, element: string, p: Vec3): Atom =>
  makeAtom({ serial: serial++, name, element, resName: "LIG", chain: "L", resSeq: 900, hetero: true, ...at(p) });

/** A ketone O at `o` whose C=O points away from `donor` (C on the D→O line), methyls in the xy plane (A7). */
function ketone(o: Vec3, donor: Vec3): Atom[] {
  const u = normalizeVec(subtractVec(o, donor));
  const c = addVec(o, scaleVec(u, 1.23));
  return [
    lig("O1", "O", o),
    lig("C1", "C", c),
    lig("C2", "C", rotated(c, u, 60, 1.5)),
    lig("C3", "C", rotated(c, u, -60, 1.5)),
  ];
}

/** Acetate with O1 at `o`, the carboxylate C on the D→O1 line (anti, φ = 180°, A3). */
function acetate(o: Vec3, donor: Vec3): Atom[] {
  const u = normalizeVec(subtractVec(o, donor));
  const c = addVec(o, scaleVec(u, 1.25));
  // O1–C–O2 = 120°, methyl opposite the bisector
  return [
    lig("O1", "O", o),
    lig("C1", "C", c),
    lig("O2", "O", rotated(c, scaleVec(u, -1), 120, 1.25)),
    lig("C2", "C", rotated(c, scaleVec(u, -1), -120, 1.52)),
  ];
}

/** Pyridine with its N at the origin, lone pair along +x rotated by `turnDeg` (ring in the xy plane; A25). */
function pyridine(turnDeg: number): Atom[] {
  const names = ["N1", "C2", "C3", "C4", "C5", "C6"];
  // ring centre on −x of N; atoms every 60°
  const centre = polar(180 + turnDeg, 1.39);
  return names.map((n, k) => lig(n, n[0]!, addVec(centre, polar(turnDeg + 60 * k, 1.39))));
}

/**
 * A peptide N–H: GLY A 2 N at the origin, its inferred H on +x (spec U6): ALA 1 C at 120°, GLY 2 CA at
 * 240°, with ALA 1's O and CA so that ALA C is a C2 with O2 (D13 needs it).
 */
function backboneNH(): Atom[] {
  const c: Vec3 = polar(120, 1.33);
  return [
    makeAtom({ serial: 1, name: "CA", element: "C", resName: "ALA", resSeq: 1, ...at(addVec(c, polar(180, 1.52))) }),
    makeAtom({ serial: 2, name: "C", element: "C", resName: "ALA", resSeq: 1, ...at(c) }),
    makeAtom({ serial: 3, name: "O", element: "O", resName: "ALA", resSeq: 1, ...at(addVec(c, polar(60, 1.23))) }),
    makeAtom({ serial: 4, name: "N", element: "N", resName: "GLY", resSeq: 2, x: 0, y: 0, z: 0 }),
    makeAtom({ serial: 5, name: "CA", element: "C", resName: "GLY", resSeq: 2, ...at(polar(240, 1.46)) }),
  ];
}

/** SER A 7 OG at the origin with CB placed so that ∠(CB, OG, acceptor) = υ. */
function serine(acceptor: Vec3, upsilonDeg: number): Atom[] {
  return [
    makeAtom({
      serial: 20,
      name: "CB",
      element: "C",
      resName: "SER",
      resSeq: 7,
      ...at(rotated([0, 0, 0], acceptor, upsilonDeg, 1.43)),
    }),
    makeAtom({ serial: 21, name: "OG", element: "O", resName: "SER", resSeq: 7, x: 0, y: 0, z: 0 }),
  ];
}

/** LYS A 9 NZ at the origin, CE on −x, CD beside it; the acceptor direction makes υ with CE. */
function lysine(): Atom[] {
  const ce: Vec3 = [-1.49, 0, 0];
  return [
    makeAtom({ serial: 30, name: "CD", element: "C", resName: "LYS", resSeq: 9, ...at(addVec(ce, [-0.5, 0, 1.43])) }),
    makeAtom({ serial: 31, name: "CE", element: "C", resName: "LYS", resSeq: 9, ...at(ce) }),
    makeAtom({ serial: 32, name: "NZ", element: "N", resName: "LYS", resSeq: 9, x: 0, y: 0, z: 0 }),
  ];
}

const strict = { criteria: STRICT_HBOND_CRITERIA };
const count = (input: FindHBondsInput) => findHBonds(input).length;

describe("hydrogen inference (spec §5.5, unit cases U9 and U13)", () => {
  it("U13: N3+ bonded to two C gets two tetrahedral H at 0.91 Å, one each side of the C–N–C plane", () => {
    const t = rad(111);
    const hs = tetrahedralPositions(
      [0, 0, 0],
      [
        [1.47, 0, 0],
        [1.47 * Math.cos(t), 1.47 * Math.sin(t), 0],
      ],
      0.91,
    );
    expect(hs).toHaveLength(2);
    const [a, b] = [...hs].sort((p, q) => p[2] - q[2]);
    // ChimeraX's cross-product order is arbitrary (spec §5.5): the pair is (−0.2975, −0.4328, ±0.7431) / (−0.2995, −0.4358, ±0.7406)
    expect([a![0], a![1], Math.abs(a![2])].map((v) => Number(v.toFixed(3)))).toEqual(
      hs[0]![2] > 0 ? [-0.3, -0.436, 0.741] : [-0.297, -0.433, 0.743],
    );
    expect(a![2]).toBeLessThan(0);
    expect(b![2]).toBeGreaterThan(0);
    for (const h of hs) expect(Math.hypot(...h)).toBeCloseTo(0.91, 10);
  });
  it("U9: the amide NH2 of Asn gets its two H in the amide plane at (1.785, ±0.7881, 0)", () => {
    const hs = trigonalPositions([1.33, 0, 0], [[0, 0, 0]], 0.91, [polar(120, 1.23), polar(240, 1.52)]);
    expect(hs.map((h) => h.map((v) => Number(v.toFixed(4))))).toEqual([
      [1.785, 0.7881, 0],
      [1.785, -0.7881, 0],
    ]);
  });
});

describe("relaxation (spec §1.4)", () => {
  it("is ChimeraX's default, 0.4 Å and 20°", () => {
    expect(DEFAULT_HBOND_CRITERIA).toEqual({ distSlopA: 0.4, angleSlopDeg: 20 });
  });
});

describe("backbone N–H (D13, inferred H) → ketone C=O (A7)", () => {
  const pocket = backboneNH();
  const along = (d: number) => ketone([d, 0, 0], [0, 0, 0]);
  it("a linear N–H···O=C at 3.10 Å is found, with the inferred H 0.91 Å from N", () => {
    const bonds = findHBonds({ pocketAtoms: pocket, ligandAtoms: along(3.1) });
    expect(bonds).toHaveLength(1);
    const [b] = bonds;
    expect(b!.donor).toMatchObject({ resName: "GLY", resSeq: 2, name: "N" });
    expect(b!.ligandIsDonor).toBe(false);
    expect(b!.hydrogenAcceptorA).toBeCloseTo(3.1 - 0.91, 6);
    expect(b!.donorAngleDeg).toBeCloseTo(180, 4);
    expect(b!.donorType).toBe("Npl D13 amide N-H");
    expect(b!.acceptorType).toBe("O2 A7 ketone/aldehyde C=O");
    expect(formatHBondsT9(bonds)).toBe("GLY 2 N A, O1");
    expect(count({ pocketAtoms: pocket, ligandAtoms: along(3.1), ...strict })).toBe(1);
  });
  it("H···A limit 2.23 Å (+0.4): H···A 2.62 Å passes, 2.65 Å fails relaxed; 2.49 Å fails strict", () => {
    expect(count({ pocketAtoms: pocket, ligandAtoms: along(0.91 + 2.62) })).toBe(1);
    expect(count({ pocketAtoms: pocket, ligandAtoms: along(0.91 + 2.65) })).toBe(0); // D···A 3.56 < the acceptor's 3.70: the donor table decides
    expect(count({ pocketAtoms: pocket, ligandAtoms: along(0.91 + 2.21), ...strict })).toBe(1);
    expect(count({ pocketAtoms: pocket, ligandAtoms: along(0.91 + 2.25), ...strict })).toBe(0);
  });
  it("D–H···A minimum 146° (−20°): 135° fails strict and passes relaxed, 120° fails both", () => {
    const h: Vec3 = [0.91, 0, 0];
    const acceptorAt = (theta: number) => addVec(h, polar(180 - theta, 1.9));
    for (const [theta, relaxedN, strictN] of [
      [150, 1, 1],
      [135, 1, 0],
      [120, 0, 0],
    ] as const) {
      const ligand = ketone(acceptorAt(theta), [0, 0, 0]);
      expect([theta, count({ pocketAtoms: pocket, ligandAtoms: ligand })]).toEqual([theta, relaxedN]);
      expect([theta, count({ pocketAtoms: pocket, ligandAtoms: ligand, ...strict })]).toEqual([theta, strictN]);
    }
  });
  it("the ketone's C=O···N angle (φ ≥ 110°, 90° relaxed) rejects a donor beside the carbonyl", () => {
    // O at 2.9 Å on +x, C=O turned so that the in-plane C=O···N angle is 100° (strict reject) or 80° (both reject)
    for (const [phi, relaxedN, strictN] of [
      [100, 1, 0],
      [80, 0, 0],
    ] as const) {
      const o: Vec3 = [2.9, 0, 0];
      const c = rotated(o, [-1, 0, 0], phi, 1.23);
      const u = normalizeVec(subtractVec(c, o));
      const ligand = [
        lig("O1", "O", o),
        lig("C1", "C", c),
        lig("C2", "C", rotated(c, u, 60, 1.5)),
        lig("C3", "C", rotated(c, u, -60, 1.5)),
      ];
      expect([phi, count({ pocketAtoms: pocket, ligandAtoms: ligand })]).toEqual([phi, relaxedN]);
      expect([phi, count({ pocketAtoms: pocket, ligandAtoms: ligand, ...strict })]).toEqual([phi, strictN]);
    }
  });
});

describe("serine OG (D5, rotor: no H) → ketone C=O (A7), spec U8", () => {
  const hit = (d: number, upsilon: number, criteria?: FindHBondsInput["criteria"]) => {
    const a: Vec3 = [d, 0, 0];
    return count({ pocketAtoms: serine(a, upsilon), ligandAtoms: ketone(a, [0, 0, 0]), criteria });
  };
  it("υ = ∠(CB, OG, A) within 90–141° (70–161° relaxed)", () => {
    expect([hit(2.8, 110), hit(2.8, 110, STRICT_HBOND_CRITERIA)]).toEqual([1, 1]);
    expect([hit(2.8, 155), hit(2.8, 155, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(2.8, 165), hit(2.8, 165, STRICT_HBOND_CRITERIA)]).toEqual([0, 0]);
    expect([hit(2.8, 85), hit(2.8, 85, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(2.8, 65), hit(2.8, 65, STRICT_HBOND_CRITERIA)]).toEqual([0, 0]);
  });
  it("D···A limit 3.17 Å to an sp2 O (3.57 relaxed)", () => {
    expect([hit(3.15, 110, STRICT_HBOND_CRITERIA), hit(3.19, 110, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(3.55, 110), hit(3.59, 110)]).toEqual([1, 0]);
  });
});

describe("lysine NZ (D4) → carboxylate (A3)", () => {
  // acceptor at υ = ∠(CE, NZ, O1) = 110°, carboxylate C on the NZ→O1 line (anti side, φ = 180°)
  const hit = (d: number, criteria?: FindHBondsInput["criteria"]) => {
    const o = rotated([0, 0, 0], [-1, 0, 0], 110, d);
    return count({ pocketAtoms: lysine(), ligandAtoms: acetate(o, [0, 0, 0]), criteria });
  };
  it("types the ligand from geometry: Cac and two O2- (carboxylate)", () => {
    const ctx = prepareHBondContext({ pocketAtoms: lysine(), ligandAtoms: acetate([3, 0, 0], [0, 0, 0]) });
    expect(ctx.graph.types.slice(3)).toEqual(["O2-", "Cac", "O2-", "C3"]);
    expect(ctx.acceptors[3]!.group).toBe("A3 carboxylate");
    expect(ctx.donors[2]!.group).toBe("D4 primary ammonium");
  });
  it("D···A limit 3.17 Å (3.57 relaxed) — the old N···O bound of 3.6 Å no longer applies", () => {
    expect([hit(3.55), hit(3.59)]).toEqual([1, 0]);
  });
});

describe("serine OG (D5) → pyridine N (A25, symmetric 6-ring), spec U3", () => {
  // Ring N is an 'sp3 O'-class acceptor for the donor tables: D5 allows D···A ≤ 3.03 Å (3.43 relaxed).
  const hit = (turn: number, d: number, criteria?: FindHBondsInput["criteria"]) => {
    const a: Vec3 = [0, 0, 0];
    const donor: Vec3 = polar(0, d);
    const ser = serine(subtractVec(a, donor), 110).map((x) => ({
      ...x,
      x: x.x + donor[0],
      y: x.y + donor[1],
      z: x.z + donor[2],
    }));
    return count({ pocketAtoms: ser, ligandAtoms: pyridine(turn), criteria });
  };
  it("types the ring from geometry: N2 in an aromatic ring of Car", () => {
    const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: pyridine(0) });
    expect(ctx.graph.types).toEqual(["N2", "Car", "Car", "Car", "Car", "Car"]);
    expect(ctx.acceptors[0]!.group).toBe("A25 N in symmetric 6-ring");
  });
  it("φ ≥ 150° (130° relaxed) in the ring plane: lone pair turned 25° / 35° / 45° / 55° from the donor", () => {
    expect([hit(25, 3.0), hit(25, 3.0, STRICT_HBOND_CRITERIA)]).toEqual([1, 1]);
    expect([hit(35, 3.0), hit(35, 3.0, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(45, 3.0), hit(45, 3.0, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(55, 3.0), hit(55, 3.0, STRICT_HBOND_CRITERIA)]).toEqual([0, 0]);
  });
  it("D···A: the hydroxyl's sp3-O-class limit 3.03 Å (3.43 relaxed) is tighter than the ring N's 3.17 Å", () => {
    expect([hit(0, 3.01, STRICT_HBOND_CRITERIA), hit(0, 3.05, STRICT_HBOND_CRITERIA)]).toEqual([1, 0]);
    expect([hit(0, 3.41), hit(0, 3.45)]).toEqual([1, 0]);
  });
});

/** A V2000 molfile from atoms (element, x, y, z) and bonds (1-based a, b, order). */
function molfile(
  atoms: readonly [string, number, number, number][],
  bonds: readonly [number, number, number][],
): string {
  const f = (v: number) => v.toFixed(4).padStart(10);
  return [
    "hand-built",
    "  test",
    "",
    `${String(atoms.length).padStart(3)}${String(bonds.length).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`,
    ...atoms.map(([e, x, y, z]) => `${f(x)}${f(y)}${f(z)} ${e.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`),
    ...bonds.map(([a, b, o]) => `${String(a).padStart(3)}${String(b).padStart(3)}${String(o).padStart(3)}  0`),
    "M  END",
    "$$$$",
    "",
  ].join("\n");
}

describe("ligand atom typing from SDF bond orders", () => {
  // Acetamide drawn with a stretched C=O (1.36 Å, what geometry alone would call a C–O single bond).
  const sdf = molfile(
    [
      ["C", 0, 0, 0],
      ["O", 1.36 * Math.cos(rad(120)), 1.36 * Math.sin(rad(120)), 0],
      ["N", 1.34, 0, 0],
      ["C", 1.5 * Math.cos(rad(240)), 1.5 * Math.sin(rad(240)), 0],
    ],
    [
      [1, 2, 2],
      [1, 3, 1],
      [1, 4, 1],
    ],
  );
  const parsed = parseSdf(sdf, "acetamide.sdf");
  if (!parsed.ok) throw new Error("parse");
  const { atoms, bonds } = parsed.structure;
  it("the bond orders make C2 / O2 / Npl: amide C=O acceptor (A6) and NH2 donor (D6)", () => {
    const ctx = prepareHBondContext({
      pocketAtoms: [],
      ligandAtoms: atoms,
      ligandBonds: bonds,
      ligandHasBondOrders: true,
    });
    expect(ctx.graph.types).toEqual(["C2", "O2", "Npl", "C3"]);
    expect(ctx.acceptors[1]!.group).toBe("A6 amide C=O");
    expect(ctx.donors[2]!.group).toBe("D6 amide NH2");
  });
  it("a carboxylic acid drawn with its OH (implicit H) is C2 / O2 / O3 (A5); from geometry alone it is a carboxylate (A3)", () => {
    const acid = parseSdf(
      molfile(
        [
          ["C", 0, 0, 0],
          ["O", 1.21 * Math.cos(rad(120)), 1.21 * Math.sin(rad(120)), 0],
          ["O", 1.31, 0, 0],
          ["C", 1.5 * Math.cos(rad(240)), 1.5 * Math.sin(rad(240)), 0],
        ],
        [
          [1, 2, 2],
          [1, 3, 1],
          [1, 4, 1],
        ],
      ),
      "acetic-acid.sdf",
    );
    if (!acid.ok) throw new Error("parse");
    const { atoms: aa, bonds: ab } = acid.structure;
    const withOrders = prepareHBondContext({
      pocketAtoms: [],
      ligandAtoms: aa,
      ligandBonds: ab,
      ligandHasBondOrders: true,
    });
    expect(withOrders.graph.types).toEqual(["C2", "O2", "O3", "C3"]);
    expect(withOrders.acceptors[1]!.group).toBe("A5 carboxylic acid C=O");
    const fromGeometry = prepareHBondContext({
      pocketAtoms: [],
      ligandAtoms: aa,
      ligandBonds: ab,
      ligandHasBondOrders: false,
    });
    expect(fromGeometry.graph.types).toEqual(["Cac", "O2-", "O2-", "C3"]);
    expect(fromGeometry.acceptors[1]!.group).toBe("A3 carboxylate");
  });
  it("the amide NH2 donates to a backbone O with its inferred in-plane H (D6, D···A ≤ 3.30 + 0.4 Å)", () => {
    // ALA A 5 O placed on the extension of one inferred N–H (0.91 Å, 120° from N–C, in the amide plane)
    const n: Vec3 = [1.34, 0, 0];
    const hDir = normalizeVec(polar(60, 1)); // the H anti to the methyl side: 120° from N→C (−x)
    const place = (d: number): Atom[] => {
      const o = addVec(n, scaleVec(hDir, d));
      const c = addVec(o, scaleVec(hDir, 1.23));
      return [
        makeAtom({ serial: 50, name: "CA", element: "C", resName: "ALA", resSeq: 5, ...at(addVec(c, polar(0, 1.52))) }),
        makeAtom({ serial: 51, name: "C", element: "C", resName: "ALA", resSeq: 5, ...at(c) }),
        makeAtom({ serial: 52, name: "O", element: "O", resName: "ALA", resSeq: 5, ...at(o) }),
      ];
    };
    const input = (d: number) => ({
      pocketAtoms: place(d),
      ligandAtoms: atoms,
      ligandBonds: bonds,
      ligandHasBondOrders: true,
    });
    const bonds3 = findHBonds(input(3.0));
    expect(bonds3.map((b) => [b.donorType, b.acceptorType, b.ligandIsDonor])).toEqual([
      ["Npl D6 amide NH2", "O2 A7 ketone/aldehyde C=O", true],
    ]);
    expect(bonds3[0]!.donorAngleDeg).toBeCloseTo(180, 4);
    expect([count(input(3.68)), count(input(3.72))]).toEqual([1, 0]);
  });
});

describe("protein typing", () => {
  itWithShared("templates and computed types on 1n7g (NDP A 701 pocket)", () => {
    const r = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "1n7g.pdb"), "utf8"), "1n7g.pdb");
    if (!r.ok) throw new Error("parse");
    const pocket = r.structure.atoms.filter(
      (a) => a.chain === "A" && !a.hetero && a.resSeq >= 36 && a.resSeq <= 41 && a.element !== "H",
    );
    const ndp = r.structure.atoms.filter((a) => a.resName === "NDP" && a.chain === "A" && a.resSeq === 701);
    const ctx = prepareHBondContext({ pocketAtoms: pocket, ligandAtoms: ndp });
    const type = (atoms: readonly Atom[], offset: number, pred: (a: Atom) => boolean) =>
      ctx.graph.types[offset + atoms.findIndex(pred)];
    expect(type(pocket, 0, (a) => a.resSeq === 37 && a.name === "OG1")).toBe("O3");
    expect(type(pocket, 0, (a) => a.resSeq === 37 && a.name === "N")).toBe("Npl");
    expect(type(pocket, 0, (a) => a.resSeq === 36 && a.name === "N")).toBe("N3+"); // no preceding residue in this atom set
    const P = pocket.length;
    expect(type(ndp, P, (a) => a.name === "N6A")).toBe("Npl"); // adenine NH2 (aniline-type)
    expect(type(ndp, P, (a) => a.name === "N1A")).toBe("N2");
    expect(type(ndp, P, (a) => a.name === "O1X")).toBe("O3-"); // phosphate O
    expect(type(ndp, P, (a) => a.name === "PN")).toBe("Pac");
    expect(type(ndp, P, (a) => a.name === "O7N")).toBe("O2");
  });
});

describe("phosphate acceptor groups (spec §3.1 A1/A11)", () => {
  // Methyl triphosphate tail, PG listed before PB: O3B bridges PG (three O3-) and PB (two O3-, O3A, O3B).
  const PB: Vec3 = [0, 0, 0];
  const O3B: Vec3 = [1.6, 0, 0];
  const PG = addVec(O3B, scaleVec([Math.cos(rad(50)), Math.sin(rad(50)), 0], 1.6));
  const [O1G, O2G, O3G] = tetrahedralPositions(PG, [O3B], 1.5) as [Vec3, Vec3, Vec3];
  const [O1B, O2B, O3A] = tetrahedralPositions(PB, [O3B], 1.5) as [Vec3, Vec3, Vec3];
  const C = addVec(O3A, scaleVec(normalizeVec(subtractVec(O3A, PB)), 1.43));
  const atoms = [
    lig("PG", "P", PG),
    lig("O1G", "O", O1G),
    lig("O2G", "O", O2G),
    lig("O3G", "O", O3G),
    lig("O3B", "O", O3B),
    lig("PB", "P", PB),
    lig("O1B", "O", O1B),
    lig("O2B", "O", O2B),
    lig("O3A", "O", O3A),
    lig("C5", "C", C),
  ];
  const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: atoms });
  const groupOf = (name: string) => ctx.acceptors[atoms.findIndex((a) => a.name === name)]?.group ?? null;

  it("a bridging O3 is A11 through the phosphorus that carries two O3- (ATP's O3B via PB), whichever P comes first", () => {
    expect(groupOf("O3B")).toBe("A11 phosphate ester/P-OH O");
    const spec = ctx.acceptors[atoms.findIndex((a) => a.name === "O3B")]!;
    expect(spec.test === "theta-tau" && spec.partner).toBe(atoms.findIndex((a) => a.name === "PB"));
    expect(groupOf("O3A")).toBe("A11 phosphate ester/P-OH O");
  });
  it("the terminal phosphate's first O3- is A1, the others generic; PB's two O3- are A2", () => {
    expect([groupOf("O1G"), groupOf("O2G"), groupOf("O3G")]).toEqual(["A1 phosphate O-", "generic O3-", "generic O3-"]);
    expect([groupOf("O1B"), groupOf("O2B")]).toEqual(["A2 phosphodiester O-", "A2 phosphodiester O-"]);
  });
});
