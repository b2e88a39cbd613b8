// needs-shared-structures: the 4dst case reads ../shared/data/structures
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { metalCoordinationDistance, prepareHBondContext } from "@/lib/molecule/hbond-context";
import { METAL_COORDINATION_TARGET_A } from "@/lib/molecule/hbond-tables";
import { isMetal } from "@/lib/molecule/chemistry/bonds";
import { evaluatePair } from "@/lib/molecule/hbond-pair";
import { angleAtDeg, distanceVec } from "@/lib/molecule/geometry/vec3";
import { type Atom, positionOf } from "@/lib/molecule/types";
import { describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import { makeAtom } from "./atoms";

describe("metal coordination distances (Harding 2006 longest target + 0.5 Å)", () => {
  it("the longest target of any donor class: Mg's main-chain carbonyl, Mn/Cu's Cys S, Ca's water, K's carboxylate", () => {
    expect(METAL_COORDINATION_TARGET_A).toEqual({
      Na: 2.41,
      Mg: 2.26,
      K: 2.82,
      Ca: 2.39,
      Mn: 2.35,
      Fe: 2.3,
      Co: 2.25,
      Ni: 2.24,
      Cu: 2.15,
      Zn: 2.31,
    });
  });
  it("Fe 2.80, Zn 2.81, Mg 2.76 Å; an unlisted metal gets its covalent radius + 1.2 Å", () => {
    expect(metalCoordinationDistance("Fe")).toBeCloseTo(2.8, 10);
    expect(metalCoordinationDistance("Zn")).toBeCloseTo(2.81, 10);
    expect(metalCoordinationDistance("Mg")).toBeCloseTo(2.76, 10);
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
    // Mg–O distances of the file (2.0–2.3 Å), inside Mg's 2.76 Å
    expect(distanceVec(positionOf(ctx.atoms[og]!), positionOf(mg))).toBeLessThan(2.76);
    expect(distanceVec(positionOf(ctx.atoms[o2b]!), positionOf(mg))).toBeLessThan(2.76);
    expect(evaluatePair(ctx, og, o2b)).toBe("shared metal");
  });
});

/** The metal–O/N/S LINK records (same asymmetric unit) of a PDB file, with the distance of the two atoms. */
function metalLinks(text: string, atoms: readonly Atom[]): { label: string; metal: string; d: number }[] {
  const key = (res: string, chain: string, seq: string, ic: string, name: string) =>
    `${res.trim()}:${chain.trim()}:${Number(seq)}${ic.trim()}:${name.trim()}`;
  const byKey = new Map(atoms.map((a) => [key(a.resName, a.chain, String(a.resSeq), a.iCode, a.name), a]));
  const out: { label: string; metal: string; d: number }[] = [];
  for (const line of text.split("\n")) {
    if (
      !line.startsWith("LINK  ") ||
      ![line.slice(59, 65).trim(), line.slice(66, 72).trim()].every((s) => !s || s === "1555")
    )
      continue;
    const a = byKey.get(
      key(line.slice(17, 20), line.slice(21, 22), line.slice(22, 26), line.slice(26, 27), line.slice(12, 16)),
    );
    const b = byKey.get(
      key(line.slice(47, 50), line.slice(51, 52), line.slice(52, 56), line.slice(56, 57), line.slice(42, 46)),
    );
    if (!a || !b) continue;
    const [m, l] = isMetal(a.element) ? [a, b] : [b, a];
    if (!isMetal(m.element) || !["O", "N", "S"].includes(l.element)) continue;
    out.push({
      label: `${m.resName} ${m.chain}${m.resSeq} – ${l.resName} ${l.chain}${l.resSeq} ${l.name}`,
      metal: m.element,
      d: distanceVec(positionOf(m), positionOf(l)),
    });
  }
  return out;
}

describeWithShared("the coordination distances against the depositors' LINK records of the shared structures", () => {
  it("every metal–O/N/S LINK lies within the metal's coordination distance but two long Ca–O (3.02, 3.09 Å)", () => {
    const dir = sharedStructurePath("plip-test-pdb");
    const outside: string[] = [];
    let links = 0;
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".pdb"))) {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
      const parsed = parsePdb(text, f);
      if (!parsed.ok) throw new Error(formatParseError(parsed.error));
      for (const l of metalLinks(text, parsed.structure.atoms)) {
        links++;
        if (l.d > metalCoordinationDistance(l.metal)) outside.push(`${f} ${l.label} ${l.d.toFixed(2)}`);
      }
    }
    expect(links).toBeGreaterThan(50);
    // Both Ca: a water and one O of a bidentate Glu, where Harding finds Ca's distances scatter widely. With Mg at
    // 2.07 + 0.5 Å (before the table was checked) 4dst's Mg 208 carbonyls (2.60–2.67 Å) and 3shy's Mg waters fell out.
    expect(outside).toEqual(["1bma.pdb CA A280 – GLU A74 OE2 3.09", "4gql.pdb CA A303 – HOH A648 O 3.02"]);
  });
});
