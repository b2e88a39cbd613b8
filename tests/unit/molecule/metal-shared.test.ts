// needs-shared-structures: the 4dst case reads ../shared/data/structures
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { metalCoordinationDistance, prepareHBondContext } from "@/lib/molecule/hbond-context";
import { evaluatePair } from "@/lib/molecule/hbond-pair";
import { angleAtDeg, distanceVec } from "@/lib/molecule/geometry/vec3";
import { type Atom, positionOf } from "@/lib/molecule/types";
import { describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import { makeAtom } from "./atoms";

describe("metal coordination distances (Harding 2006 target + 0.5 Å)", () => {
  it("Fe 2.80, Zn 2.81, Mg 2.57 Å; an unlisted metal gets its covalent radius + 1.2 Å", () => {
    expect(metalCoordinationDistance("Fe")).toBeCloseTo(2.8, 10);
    expect(metalCoordinationDistance("Zn")).toBeCloseTo(2.81, 10);
    expect(metalCoordinationDistance("Mg")).toBeCloseTo(2.57, 10);
    // Cordero's Cd radius 1.44 Å
    expect(metalCoordinationDistance("Cd")).toBeCloseTo(2.64, 10);
  });
});

describe("a donor and an acceptor on the same metal are never an H-bond", () => {
  // Ser OG acceptor at the origin, an ethanol O donor 2.9 Å along +x; both C–O···O angles 120° / 110°.
  const ser = (name: string, element: string, x: number, y: number): Atom =>
    makeAtom({ name, element, x, y, z: 0, resName: "SER", resSeq: 10 });
  const lig = (name: string, element: string, x: number, y: number, z = 0): Atom =>
    makeAtom({ name, element, x, y, z, resName: "EOH", chain: "B", resSeq: 1, hetero: true });
  const c120 = [1.43 * Math.cos((240 * Math.PI) / 180), 1.43 * Math.sin((240 * Math.PI) / 180)] as const;
  const pocket = [ser("CB", "C", c120[0], c120[1]), ser("OG", "O", 0, 0)];
  const c1: [number, number] = [2.9 + 1.43 * Math.cos((290 * Math.PI) / 180), 1.43 * Math.sin((290 * Math.PI) / 180)];
  const ligand = [lig("O", "O", 2.9, 0), lig("C1", "C", c1[0], c1[1]), lig("C2", "C", c1[0] + 1.0, c1[1] - 1.1, 0.3)];
  // Zn 2.10 Å from both O (on the +y side, away from both carbons): ∠(D, A, Zn) = acos(1.45 / 2.10) = 46.3°.
  const zn = makeAtom({
    name: "ZN",
    element: "Zn",
    x: 1.45,
    y: Math.sqrt(2.1 ** 2 - 1.45 ** 2),
    z: 0,
    resName: "ZN",
    chain: "C",
    resSeq: 1,
    hetero: true,
  });

  it("without the metal the pair passes the spec's tests", () => {
    const ctx = prepareHBondContext({ pocketAtoms: pocket, ligandAtoms: ligand });
    expect(evaluatePair(ctx, 2, 1)).toBe("accepted");
  });

  it("with a Zn 2.10 Å from both O it is rejected, although the spec's 45° veto would let it pass (46.3°)", () => {
    const ctx = prepareHBondContext({ pocketAtoms: [...pocket, zn], ligandAtoms: ligand });
    const [og, o, m] = [positionOf(pocket[1]!), positionOf(ligand[0]!), positionOf(zn)];
    expect(distanceVec(og, m)).toBeCloseTo(2.1, 10);
    expect(angleAtDeg(o, og, m)).toBeCloseTo(46.33, 2);
    expect(evaluatePair(ctx, 3, 1)).toBe("shared metal");
  });

  it("a metal farther than its coordination distance from one of them does not reject it", () => {
    const far = { ...zn, y: 3.2 }; // 3.52 Å from both O: second shell
    const ctx = prepareHBondContext({ pocketAtoms: [...pocket, far], ligandAtoms: ligand });
    expect(evaluatePair(ctx, 3, 1)).not.toBe("shared metal");
  });
});

describeWithShared("4dst: Ser 17 OG and the GCP β-phosphate O2B both bind the Mg", () => {
  it("the pair is rejected as metal-bridged", () => {
    const file = sharedStructurePath("plip-test-pdb", "4dst.pdb");
    const parsed = parsePdb(fs.readFileSync(file, "utf8"), "4dst.pdb");
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const prepared = prepareComplex(parsed.structure, { ligandId: "GCP:A:202" });
    if (!prepared.ok) throw new Error(prepared.reason);
    const c = prepared.complex;
    const ctx = prepareHBondContext({ pocketAtoms: c.pocketAtoms, ligandAtoms: c.ligand.atoms });
    const og = c.pocketAtoms.findIndex((a) => a.resName === "SER" && a.resSeq === 17 && a.name === "OG");
    const o2b = ctx.pocketCount + c.ligand.atoms.findIndex((a) => a.name === "O2B");
    const mg = c.pocketAtoms.find((a) => a.element === "Mg")!;
    // Mg–O distances of the file (2.0–2.1 Å), inside Mg's 2.57 Å
    expect(distanceVec(positionOf(ctx.atoms[og]!), positionOf(mg))).toBeLessThan(2.57);
    expect(distanceVec(positionOf(ctx.atoms[o2b]!), positionOf(mg))).toBeLessThan(2.57);
    expect(evaluatePair(ctx, og, o2b)).toBe("shared metal");
  });
});
