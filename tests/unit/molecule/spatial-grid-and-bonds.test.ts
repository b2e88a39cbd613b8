import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/rng";
import { createSpatialGrid, findNeighbours } from "@/lib/molecule/geometry/spatial-grid";
import { perceiveBonds } from "@/lib/molecule/chemistry/bonds";
import { cpkColorOf, covalentRadiusOf, normalizeElementSymbol, vdwRadiusOf } from "@/lib/molecule/chemistry/elements";
import { parsePdb, parseSdf } from "@/lib/molecule/parse";
import { itWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";

describe("spatial grid", () => {
  it("returns exactly the brute-force neighbours, in index order", () => {
    const rng = createRng("grid-test");
    const points = Array.from({ length: 500 }, () => ({
      x: rng.next() * 30 - 15,
      y: rng.next() * 30 - 15,
      z: rng.next() * 30 - 15,
    }));
    const grid = createSpatialGrid(points, 3.5);
    for (let q = 0; q < 50; q++) {
      const p = { x: rng.next() * 30 - 15, y: rng.next() * 30 - 15, z: rng.next() * 30 - 15 };
      const r = 1 + rng.next() * 6;
      const brute = points
        .map((s, i) => [s, i] as const)
        .filter(([s]) => Math.hypot(s.x - p.x, s.y - p.y, s.z - p.z) <= r)
        .map(([, i]) => i);
      expect(findNeighbours(grid, p, r)).toEqual(brute);
    }
  });
});

describe("element table", () => {
  it("has Cordero covalent radii, Bondi vdW radii and CPK colours (O red, N blue)", () => {
    expect(covalentRadiusOf("C")).toBe(0.76);
    expect(covalentRadiusOf("N")).toBe(0.71);
    expect(vdwRadiusOf("O")).toBe(1.52);
    expect(vdwRadiusOf("Fe")).toBe(2.0); // no Bondi value: default
    expect(cpkColorOf("O")).toBe("#FF0D0D");
    expect(cpkColorOf("N")).toBe("#3050F8");
    expect(normalizeElementSymbol("FE")).toBe("Fe");
    expect(normalizeElementSymbol("D")).toBe("H");
    expect(normalizeElementSymbol("Xx")).toBeNull();
  });
});

describe("bond perception", () => {
  itWithShared("recovers the SDF's own bond list from coordinates alone (7ECR succinate)", () => {
    const r = parseSdf(
      fs.readFileSync(sharedStructurePath("posebusters-conftest", "7ECR_SIN", "7ECR_SIN_ligand.sdf"), "utf8"),
      "s.sdf",
    );
    if (!r.ok) throw new Error("parse");
    const perceived = perceiveBonds(r.structure.atoms).map((b) => [b.a, b.b]);
    expect(perceived).toEqual(r.structure.bonds.map((b) => [b.a, b.b]));
  });
  itWithShared(
    "gives a protein residue its template bonds and the peptide bond, but no side-chain contacts (1n7g)",
    () => {
      const r = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "1n7g.pdb"), "utf8"), "1n7g.pdb");
      if (!r.ok) throw new Error("parse");
      const atoms = r.structure.atoms.filter((a) => a.chain === "A" && a.resSeq >= 60 && a.resSeq <= 61);
      const bonds = perceiveBonds(atoms);
      const names = bonds.map(
        (b) => `${atoms[b.a]!.resSeq}${atoms[b.a]!.name}-${atoms[b.b]!.resSeq}${atoms[b.b]!.name}`,
      );
      // ARG 60 and ARG 61: 11 heavy atoms and 10 bonds each (acyclic), plus the 60C-61N peptide bond
      expect(new Set(atoms.map((a) => a.resName))).toEqual(new Set(["ARG"]));
      expect(atoms).toHaveLength(22);
      expect(names).toContain("60C-61N");
      expect(names).toContain("60CZ-60NH1");
      expect(bonds).toHaveLength(21);
    },
  );
});
