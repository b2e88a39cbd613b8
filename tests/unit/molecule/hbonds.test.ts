import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_HBOND_CRITERIA,
  findHBonds,
  formatHBondsT9,
  inferHydrogenDirections,
} from "@/lib/molecule/hbonds";
import { typePolarAtoms } from "@/lib/molecule/chemistry/hbond-typing";
import { perceiveBonds } from "@/lib/molecule/chemistry/bonds";
import { parsePdb, parseSdf } from "@/lib/molecule/parse";
import { angleBetweenDeg, type Vec3 } from "@/lib/molecule/geometry/vec3";
import type { Atom } from "@/lib/molecule/types";
import { itWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import { makeAtom } from "./atoms";

/**
 * A peptide N–H of GLY A 2 at the origin whose hydrogen points along +x: CA and the previous
 * residue's C sit at ±120° in the xy plane, so the in-plane H direction is −(u₁+u₂) = +x.
 */
function peptideDonor(): Atom[] {
  const at = (deg: number, r: number): [number, number, number] => [r * Math.cos((deg * Math.PI) / 180), r * Math.sin((deg * Math.PI) / 180), 0];
  const [cx, cy, cz] = at(240, 1.33);
  const [ax, ay, az] = at(120, 1.47);
  return [
    makeAtom({ serial: 1, name: "C", element: "C", resName: "ALA", resSeq: 1, x: cx, y: cy, z: cz }),
    makeAtom({ serial: 2, name: "N", element: "N", resName: "GLY", resSeq: 2, x: 0, y: 0, z: 0 }),
    makeAtom({ serial: 3, name: "CA", element: "C", resName: "GLY", resSeq: 2, x: ax, y: ay, z: az }),
  ];
}

/** A ligand carbonyl O at `o` with its C 1.23 Å further along `dir` (C=O pointing at the donor). */
function carbonylLigand(o: Vec3, dir: Vec3): Atom[] {
  return [
    makeAtom({ serial: 10, name: "O1", element: "O", resName: "LIG", resSeq: 900, hetero: true, x: o[0], y: o[1], z: o[2] }),
    makeAtom({ serial: 11, name: "C1", element: "C", resName: "LIG", resSeq: 900, hetero: true, x: o[0] + 1.23 * dir[0], y: o[1] + 1.23 * dir[1], z: o[2] + 1.23 * dir[2] }),
  ];
}

describe("H-bond criteria on a hand-built N–H···O=C", () => {
  it("3.2 Å with a linear N–H···O and C=O···N is a bond, with the expected geometry", () => {
    const bonds = findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([3.2, 0, 0], [1, 0, 0]) });
    expect(bonds).toHaveLength(1);
    const [b] = bonds;
    expect(b!.donor).toMatchObject({ resName: "GLY", resSeq: 2, name: "N", chain: "A" });
    expect(b!.acceptor).toMatchObject({ name: "O1", resName: "LIG" });
    expect(b!.ligandIsDonor).toBe(false);
    expect(b!.distanceA).toBeCloseTo(3.2, 10);
    // H at (1.01, 0, 0): H···O = 3.2 − 1.01 = 2.19 Å, D–H···A = 180°, C=O···N = 180°
    expect(b!.hydrogenAcceptorA).toBeCloseTo(2.19, 10);
    expect(b!.donorAngleDeg).toBeCloseTo(180, 6);
    expect(b!.acceptorAngleDeg).toBeCloseTo(180, 6);
    expect(formatHBondsT9(bonds)).toBe("GLY 2 N A, O1");
  });
  it("the same pair at 4.2 Å is not a bond (limit 3.2 + 0.4 Å)", () => {
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([4.2, 0, 0], [1, 0, 0]) })).toEqual([]);
  });
  it("the distance limit is exactly the relaxed N···O bound: 3.59 Å passes, 3.61 Å fails", () => {
    expect(DEFAULT_HBOND_CRITERIA.maxDonorAcceptorA.N.O + DEFAULT_HBOND_CRITERIA.distSlopA).toBeCloseTo(3.6, 12);
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([3.59, 0, 0], [1, 0, 0]) })).toHaveLength(1);
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([3.61, 0, 0], [1, 0, 0]) })).toHaveLength(0);
  });
  it("3.2 Å but beside the N–H (D–H···A = 72.5°) is not a bond", () => {
    // O at (0, −3.2, 0), 90° off the N–H axis: at H (1.01, 0, 0) the angle between (−1.01, 0, 0) and
    // (−1.01, −3.2, 0) is acos(1.0201 / (1.01 · 3.3556)) = 72.5°
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([0, -3.2, 0], [0, -1, 0]) })).toEqual([]);
  });
  it("3.2 Å in line with the N–H but with the C=O pointing at the donor (C=O···N = 0°) is not a bond", () => {
    // C placed between N and O: the acceptor angle at O is 0°
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: carbonylLigand([3.2, 0, 0], [-1, 0, 0]) })).toEqual([]);
  });
  it("without the relaxation (slop 0) a 3.4 Å bond is rejected, with it accepted", () => {
    const ligand = carbonylLigand([3.4, 0, 0], [1, 0, 0]);
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: ligand })).toHaveLength(1);
    expect(findHBonds({ pocketAtoms: peptideDonor(), ligandAtoms: ligand, criteria: { distSlopA: 0, angleSlopDeg: 0 } })).toHaveLength(0);
  });
});

describe("inferred hydrogen directions", () => {
  it("sp3 N with two heavy neighbours: two positions 109.5° apart, each 109.5° from the neighbours", () => {
    // neighbours along x and at 109.47° in the xy plane
    const t = (109.47 * Math.PI) / 180;
    const h = inferHydrogenDirections("sp3", [0, 0, 0], [[1.47, 0, 0], [1.47 * Math.cos(t), 1.47 * Math.sin(t), 0]], null);
    if (h.kind !== "fixed") throw new Error("expected fixed");
    expect(h.directions).toHaveLength(2);
    expect(angleBetweenDeg(h.directions[0]!, h.directions[1]!)).toBeCloseTo(109.47, 1);
    expect(angleBetweenDeg(h.directions[0]!, [1, 0, 0])).toBeCloseTo(109.47, 1);
  });
  it("sp2 NH2: two in-plane positions at 120° from the C–N bond", () => {
    // amide N at the origin, C at (-1.33, 0, 0), the carbonyl O (plane reference) at (-2, 1.1, 0)
    const h = inferHydrogenDirections("sp2", [0, 0, 0], [[-1.33, 0, 0]], [-2, 1.1, 0]);
    if (h.kind !== "fixed") throw new Error("expected fixed");
    for (const d of h.directions) {
      expect(angleBetweenDeg(d, [-1, 0, 0])).toBeCloseTo(120, 9);
      expect(d[2]).toBeCloseTo(0, 12);
    }
  });
  it("hydroxyl: a cone at 180° − 109.47° about the C→O axis", () => {
    const h = inferHydrogenDirections("rotor", [0, 0, 0], [[-1.43, 0, 0]], null);
    if (h.kind !== "cone") throw new Error("expected cone");
    h.axis.forEach((v, i) => expect(v).toBeCloseTo([1, 0, 0][i]!, 12));
    expect(h.angleFromAxisDeg).toBeCloseTo(70.53, 2);
  });
});

describe("donor/acceptor typing", () => {
  it("protein atoms by residue and atom name", () => {
    const atoms = [
      makeAtom({ name: "OG", element: "O", resName: "SER", x: 0, y: 0, z: 0 }),
      makeAtom({ name: "NZ", element: "N", resName: "LYS", resSeq: 2, x: 10, y: 0, z: 0 }),
      makeAtom({ name: "OD1", element: "O", resName: "ASP", resSeq: 3, x: 20, y: 0, z: 0 }),
      makeAtom({ name: "SD", element: "S", resName: "MET", resSeq: 4, x: 30, y: 0, z: 0 }),
      makeAtom({ name: "NE2", element: "N", resName: "HIS", resSeq: 5, x: 40, y: 0, z: 0 }),
    ];
    const types = typePolarAtoms(atoms, [], { hasBondOrders: false });
    expect(types[0]).toMatchObject({ donor: { geometry: "rotor" }, acceptor: { geometry: "sp3-O" } });
    expect(types[1]).toMatchObject({ donor: { geometry: "rotor", hydrogenCount: 3 }, acceptor: null });
    expect(types[2]).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } });
    expect(types[3]).toBeNull();
    expect(types[4]).toMatchObject({ donor: { geometry: "sp2" }, acceptor: { geometry: "sp2-N" } });
  });

  itWithShared("ligand atoms from heavy-atom geometry (NDP A 701 of 1n7g)", () => {
    const r = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "1n7g.pdb"), "utf8"), "1n7g.pdb");
    if (!r.ok) throw new Error("parse");
    const ndp = r.structure.atoms.filter((a) => a.resName === "NDP" && a.chain === "A" && a.resSeq === 701);
    const types = typePolarAtoms(ndp, perceiveBonds(ndp), { hasBondOrders: false, useResidueTemplates: false });
    const label = (name: string) => types[ndp.findIndex((a) => a.name === name)];
    expect(label("N1A")).toMatchObject({ donor: null, acceptor: { geometry: "sp2-N" } }); // adenine ring N
    expect(label("N6A")).toMatchObject({ donor: { geometry: "sp2", hydrogenCount: 2 }, acceptor: null }); // adenine NH2
    expect(label("O3D")).toMatchObject({ donor: { geometry: "rotor" }, acceptor: { geometry: "sp3-O" } }); // ribose OH
    expect(label("O7N")).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } }); // nicotinamide C=O
    expect(label("N7N")).toMatchObject({ donor: { geometry: "sp2", hydrogenCount: 2 } }); // nicotinamide NH2
    expect(label("O1X")).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } }); // phosphate O
    expect(label("O4B")).toMatchObject({ donor: null, acceptor: { geometry: "sp3-O" } }); // ribose ring O
    expect(label("N9A")).toBeNull(); // glycosidic N: three heavy neighbours, planar
  });

  itWithShared("a poorly refined flavin keeps its imide N–H and C=O (1aku FMN: C2–O2 1.35 Å, C4–O4 1.39 Å)", () => {
    const r = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "1aku.pdb"), "utf8"), "1aku.pdb");
    if (!r.ok) throw new Error("parse");
    const fmn = r.structure.atoms.filter((a) => a.resName === "FMN");
    const types = typePolarAtoms(fmn, perceiveBonds(fmn), { hasBondOrders: false, useResidueTemplates: false });
    const type = (name: string) => types[fmn.findIndex((a) => a.name === name)];
    expect(type("N3")).toMatchObject({ donor: { geometry: "sp2", hydrogenCount: 1 }, acceptor: null });
    expect(type("O2")).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } });
    expect(type("O4")).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } });
    // N1 sits between C2=O and C10A: N-H in reduced, bare in oxidised flavin; heavy atoms cannot tell
    expect(type("N1")).toMatchObject({ donor: { geometry: "sp2" }, acceptor: { geometry: "sp2-N" } });
  });

  itWithShared("ligand atoms from SDF bond orders (7ECR succinate, drawn as the neutral acid)", () => {
    const r = parseSdf(fs.readFileSync(sharedStructurePath("posebusters-conftest", "7ECR_SIN", "7ECR_SIN_ligand.sdf"), "utf8"), "s.sdf");
    if (!r.ok) throw new Error("parse");
    const types = typePolarAtoms(r.structure.atoms, r.structure.bonds, { hasBondOrders: true, useResidueTemplates: false });
    // O1 is C=O (acceptor only); O2 is C–O with one implicit H (hydroxyl: donor and acceptor)
    expect(types[1]).toMatchObject({ donor: null, acceptor: { geometry: "sp2-O" } });
    expect(types[2]).toMatchObject({ donor: { geometry: "rotor", hydrogenCount: 1 }, acceptor: { geometry: "sp3-O" } });
    expect(types[0]).toBeNull();
  });
});
