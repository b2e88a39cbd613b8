// needs-shared-structures: the instance checks read ../shared/data/structures (skipped without it)
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPONENT_TEMPLATES, SUBSTITUENTS } from "@/lib/molecule/chemistry/component-templates";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import { prepareHBondContext } from "@/lib/molecule/hbond-context";
import { donorHydrogens } from "@/lib/molecule/hbond-hydrogens";
import { describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";
import reference from "../../fixtures/ccd/components.json";

/**
 * Each template against the CCD's records of its component (tests/fixtures/ccd: the CCD subset shipped by Debian's
 * pymol-data, and the CCP4 monomer library), and against every instance of it in the shared wwPDB files.
 */
interface Source {
  source: string;
  /** Heavy atom name → [element, hydrogen count, charge (monomer library only)]. */
  atoms: Record<string, [string, number, number?]>;
  /** Heavy-atom bonds: [atom, atom, Kekulé order, aromatic flag]. */
  bonds: [string, string, string, boolean][];
}
const REFERENCE = reference as unknown as Record<string, Source[]>;

/** Types that sit exactly on atoms with a double, aromatic or (C1, erlotinib's alkyne) triple bond. */
const SP2 = new Set(["C2", "Car", "Cac", "N2", "N2+", "O2", "C1"]);
const UNTEMPLATED = new Set(["Fe", "F", "Cl", "Br", "I"]);

type Neighbours = Map<string, { other: string; order: string }[]>;

/** Whether atom `n` lies on a ring of the reference's heavy-atom graph (some bond of it is not a bridge). */
function inRing(n: string, neighbours: Neighbours): boolean {
  return (neighbours.get(n) ?? []).some(({ other }) => {
    const seen = new Set([n]);
    const queue = (neighbours.get(other) ?? []).map((b) => b.other).filter((x) => x !== n);
    seen.add(other);
    while (queue.length > 0) {
      const x = queue.pop()!;
      if (x === n) return true;
      if (seen.has(x)) continue;
      seen.add(x);
      queue.push(...(neighbours.get(x) ?? []).map((b) => b.other));
    }
    return false;
  });
}

/**
 * The type IDATM's rules for basic and sulfonamide N fix regardless of geometry (spec §6.3), or null where they do not
 * apply: pass 6a, an N whose heavy neighbours are all sp3 C is N3+; pass 6b, the non-ring N of a non-ring C2 bonded to
 * two or more such N and to no C=O/C=S are Ng+; pass 3, an N whose one heavy neighbour is a sulfonyl S is N3.
 */
function idatmBaseRule(
  n: string,
  nb: { other: string; order: string }[],
  template: ReadonlyMap<string, string>,
  neighbours: Neighbours,
  elements: Record<string, [string, number, number?]>,
): string | null {
  if (nb.length > 0 && nb.every((b) => template.get(b.other) === "C3")) return "N3+";
  if (nb.length === 1 && template.get(nb[0]!.other) === "Son") return "N3";
  if (inRing(n, neighbours)) return null;
  for (const { other: c } of nb) {
    if (template.get(c) !== "C2" || inRing(c, neighbours)) continue;
    const around = (neighbours.get(c) ?? []).map((b) => b.other);
    const ns = around.filter((x) => elements[x]![0] === "N" && !inRing(x, neighbours));
    if (ns.length >= 2 && !around.some((x) => ["O2", "S2"].includes(template.get(x) ?? ""))) return "Ng+";
  }
  return null;
}

/** Every disagreement between a template and one reference source, as readable lines (empty when they agree). */
function disagreements(
  id: string,
  ref: Source,
  template: ReadonlyMap<string, string> = COMPONENT_TEMPLATES.get(id)!,
): string[] {
  const out: string[] = [];
  // The heme iron and the drugs' halogens are typed by element, outside the templates.
  const heavy = Object.keys(ref.atoms).filter((n) => !UNTEMPLATED.has(ref.atoms[n]![0]));
  for (const n of heavy) if (!template.has(n)) out.push(`${n}: in the reference, not typed`);
  for (const n of template.keys()) if (!(n in ref.atoms)) out.push(`${n}: typed, not an atom of the reference`);
  const neighbours: Neighbours = new Map();
  for (const [a, b, order] of ref.bonds) {
    neighbours.set(a, [...(neighbours.get(a) ?? []), { other: b, order }]);
    neighbours.set(b, [...(neighbours.get(b) ?? []), { other: a, order }]);
  }
  // Amidinium/guanidinium: at most one Ng+ per central C may carry one H more than the neutral reference.
  const protonatedAmidine = new Set<string>();
  for (const n of heavy) {
    const type = template.get(n);
    if (type === undefined) continue;
    const [element, hydrogens] = ref.atoms[n]!;
    const nb = neighbours.get(n) ?? [];
    if (type[0] !== element) out.push(`${n}: ${type} on a ${element}`);
    const implied = SUBSTITUENTS[type]! - nb.length;
    // The one intended difference: an acid O–H on P or C (CCD protonation) is ionised in the template (pH 7).
    const ionisedAcid =
      (type === "O3-" || type === "O2-") && hydrogens === 1 && nb.length === 1 && /^[PC]/.test(nb[0]!.other);
    // The other: a basic N the CCD gives neutral is protonated, as IDATM types it (pass 6): an amine N bonded only to
    // sp3 C (N3+), one N of an amidine or guanidine (Ng+).
    const centre = type === "Ng+" ? nb.find((b) => template.get(b.other) === "C2")?.other : undefined;
    const protonatedBase =
      implied === hydrogens + 1 &&
      (type === "N3+" || (centre !== undefined && !protonatedAmidine.has(centre) && protonatedAmidine.add(centre)));
    if (implied !== hydrogens && !(ionisedAcid && implied === 0) && !protonatedBase)
      out.push(`${n}: ${type} implies ${implied} H, the reference has ${hydrogens}`);
    if (element === "N") {
      const rule = idatmBaseRule(n, nb, template, neighbours, ref.atoms);
      if (rule !== null && rule !== type) out.push(`${n}: ${type}, IDATM gives ${rule}`);
      if (rule === null && ["N3+", "Ng+", "N3"].includes(type)) out.push(`${n}: ${type}, IDATM would not give it`);
    }
    if (element === "S" || element === "O") {
      // A ring S/O between two aromatic-ring atoms (thiazole, thiadiazole S; furan O) is aromatic, Sar/Oar.
      const aromaticRing =
        nb.length === 2 &&
        inRing(n, neighbours) &&
        nb.every((b) => ["Car", "N2", "Npl"].includes(template.get(b.other) ?? ""));
      if (aromaticRing !== ["Sar", "Oar"].includes(type))
        out.push(`${n}: ${type} ${aromaticRing ? "in" : "outside"} an aromatic ring`);
    }
    const multiple = nb.some((b) => b.order !== "sing");
    // Npl is both an amide/aniline N (single bonds) and an aromatic ring N (a Kekulé double bond); an ionised O
    // (O3-, O2-), its P and a terminal S on P (S3-, GTPγS's S1G, P=S in the references) take any order; so do an
    // amidinium/guanidinium N (Ng+: C=N or C–N in the Kekulé form) and a sulfonyl S (Son, S=O in the references).
    if (["Npl", "O3-", "O2-", "Pac", "S3-", "Ng+", "Son"].includes(type)) continue;
    if (SP2.has(type) !== multiple) out.push(`${n}: ${type} but ${multiple ? "a" : "no"} double bond`);
  }
  return out;
}

describe("templates against the CCD records of their components (tests/fixtures/ccd)", () => {
  it("every templated component has a reference, and the CCD subset where it has the component", () => {
    expect([...COMPONENT_TEMPLATES.keys()].filter((id) => !REFERENCE[id])).toEqual([]);
    const inSubset = Object.keys(REFERENCE).filter((id) => REFERENCE[id]!.some((s) => s.source.startsWith("wwPDB")));
    expect(inSubset.sort()).toEqual(["ADP", "ANP", "ATP", "FAD", "FMN", "GDP", "GTP", "HEM", "NAD", "NAP", "NDP"]);
  });

  // The heme's NA and NC are the pyrrole N of the Kekulé form, single-bonded with no H because the iron holds them;
  // the template types all four iron-bound N alike (N2, no H), which the implied-H check already confirms.
  const HEME_PYRROLE = new Set(["NA: N2 but no double bond", "NC: N2 but no double bond"]);

  for (const id of [...COMPONENT_TEMPLATES.keys()].sort()) {
    it(`${id}: atom names, elements, hydrogens and double bonds agree with ${(REFERENCE[id] ?? []).map((s) => s.source).join(" and ")}`, () => {
      for (const ref of REFERENCE[id]!) {
        const found = disagreements(id, ref).filter((d) => !(id === "HEM" && HEME_PYRROLE.has(d)));
        expect(found, ref.source).toEqual([]);
      }
    });
  }

  it("charges (monomer library): N2+ exactly on the cationic N (NAD/NAP N1N), ionised O exactly O3-/O2-", () => {
    const out: string[] = [];
    for (const [id, template] of COMPONENT_TEMPLATES) {
      const lib = REFERENCE[id]!.find((s) => s.source.startsWith("CCP4"))!;
      for (const [n, [element, , q]] of Object.entries(lib.atoms)) {
        const type = template.get(n);
        // Heme's NB and ND carry the +1 of the Kekulé form in the library; the template types all four Fe-bound N alike.
        if (element === "N" && id !== "HEM" && (type === "N2+") !== (q === 1)) out.push(`${id} ${n} ${type} q=${q}`);
        if (element === "O" && q! < 0 && type !== "O3-" && type !== "O2-") out.push(`${id} ${n} ${type} q=${q}`);
      }
    }
    expect(out).toEqual([]);
    expect(REFERENCE.NAD![1]!.atoms.N1N![2]).toBe(1);
    expect(REFERENCE.NAI![0]!.atoms.N1N![2]).toBe(0);
  });

  it("the check can fail: a wrong name, a missing atom and a wrong protonation are each reported", () => {
    const adp = REFERENCE.ADP![0]!;
    const renamed: Source = { ...adp, atoms: { ...adp.atoms, N6X: adp.atoms.N6! } };
    delete renamed.atoms.N6;
    expect(disagreements("ADP", renamed)).toEqual([
      "N6X: in the reference, not typed",
      "N6: typed, not an atom of the reference",
    ]);
    // Guanine N1 carries an H in the CCD; a template typing it N2 (acceptor, no H) would disagree.
    const gdp = REFERENCE.GDP![0]!;
    const noH: Source = { ...gdp, atoms: { ...gdp.atoms, N1: ["N", 0] } };
    expect(disagreements("GDP", noH)).toEqual(["N1: Npl implies 1 H, the reference has 0"]);
    // Drugs: a neutral piperazine N, a neutral amidine and a thioether S in place of the thiazole's are each reported.
    const broken = (id: string, name: string, type: string) =>
      disagreements(id, REFERENCE[id]![0]!, new Map([...COMPONENT_TEMPLATES.get(id)!, [name, type]]));
    expect(broken("STI", "N48", "Npl")).toEqual(["N48: Npl, IDATM gives N3+"]);
    expect(broken("BEN", "N1", "N2")).toEqual(["N1: N2, IDATM gives Ng+"]);
    expect(broken("1N1", "S", "S3")).toEqual(["S: S3 in an aromatic ring"]);
    expect(broken("AZM", "N1", "Npl")).toEqual(["N1: Npl, IDATM gives N3"]);
  });

  it("drugs at pH 7 as IDATM types them: basic amines N3+, amidines and guanidines Ng+, where the CCD is neutral", () => {
    const lib = (id: string, n: string) => REFERENCE[id]!.find((s) => s.source.startsWith("CCP4"))!.atoms[n]!;
    const rows = [
      ["STI", "N48"],
      ["STI", "N51"],
      ["VIA", "N17"],
      ["1N1", "N6"],
      ["G39", "N4"],
      ["STU", "N4"],
      ["E20", "N14"],
      ["BEN", "N1"],
      ["BEN", "N2"],
      ["GP6", "N1"],
      ["GP6", "N2"],
      ["ZMR", "NE"],
      ["ZMR", "NH1"],
      ["ZMR", "NH2"],
    ].map(([id, n]) => `${id} ${n} ${COMPONENT_TEMPLATES.get(id!)!.get(n!)} H${lib(id!, n!)[1]} q${lib(id!, n!)[2]}`);
    expect(rows).toEqual([
      "STI N48 N3+ H0 q0",
      "STI N51 N3+ H0 q0",
      "VIA N17 N3+ H0 q0",
      "1N1 N6 N3+ H0 q0",
      "G39 N4 N3+ H2 q0",
      "STU N4 N3+ H1 q0",
      "E20 N14 N3+ H0 q0",
      "BEN N1 Ng+ H1 q0",
      "BEN N2 Ng+ H2 q0",
      "GP6 N1 Ng+ H1 q0",
      "GP6 N2 Ng+ H2 q0",
      "ZMR NE Ng+ H0 q0",
      "ZMR NH1 Ng+ H2 q0",
      "ZMR NH2 Ng+ H2 q0",
    ]);
    // Sulfonamides: the primary NH2 (acetazolamide N1) N3 with two H, as IDATM's one-neighbour rule gives; N-aryl
    // (vemurafenib N27) and tertiary (sildenafil N14) planar, as on the library's ideal geometry (angles ~120°).
    expect(
      ["AZM N1", "032 N27", "VIA N14"].map((x) => COMPONENT_TEMPLATES.get(x.split(" ")[0]!)!.get(x.split(" ")[1]!)),
    ).toEqual(["N3", "Npl", "Npl"]);
  });

  it("chemistry the issue names: guanine N1–H, H4B ring N5–H and N8–H, NADH/NADPH N1N with no H, GTPγS S1G on PG", () => {
    const h = (id: string, n: string) => REFERENCE[id]!.map((s) => s.atoms[n]![1]);
    for (const id of ["GDP", "GTP", "GNP", "GCP", "GSP", "C2E"])
      expect(h(id, "N1"), id).toEqual(h(id, "N1").map(() => 1));
    expect(h("C2E", "N11")).toEqual([1]);
    expect([h("H4B", "N5"), h("H4B", "N8"), h("H4B", "N1")]).toEqual([[1], [1], [0]]);
    for (const id of ["NAI", "NDP"]) expect(h(id, "N1N"), id).toEqual(h(id, "N1N").map(() => 0));
    expect(REFERENCE.GSP![0]!.bonds.filter((b) => b.includes("S1G")).map((b) => b.slice(0, 2))).toEqual([
      ["S1G", "PG"],
    ]);
  });
});

describe("C2E end to end, on the monomer library's ideal coordinates (tests/fixtures/ccd/C2E-ideal.pdb)", () => {
  /**
   * "NAME TYPE donor(H count)|- acceptor|-" of the named atoms of the one-residue file, after setting each guanine's
   * N1–C2 to 1.346 Å and C2–N3 to 1.353 Å (moving N1 and N3 along their bonds): 4dst's GCP lengths, which led the
   * inference from bond lengths to type N1 an acceptor.
   */
  function roles(file: string, names: string[]): string[] {
    const text = fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/ccd", file), "utf8");
    const parsed = parsePdb(text, file);
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const atoms = parsed.structure.atoms;
    const at = (n: string) => atoms.find((a) => a.name === n)!;
    const stretch = (fixed: string, moving: string, length: number) => {
      const [f, m] = [at(fixed), at(moving)];
      const d = Math.hypot(m.x - f.x, m.y - f.y, m.z - f.z);
      m.x = f.x + ((m.x - f.x) * length) / d;
      m.y = f.y + ((m.y - f.y) * length) / d;
      m.z = f.z + ((m.z - f.z) * length) / d;
    };
    for (const suffix of atoms.some((a) => a.name === "N11") ? ["", "1"] : [""]) {
      stretch(`C2${suffix}`, `N1${suffix}`, 1.346);
      stretch(`C2${suffix}`, `N3${suffix}`, 1.353);
    }
    const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: atoms });
    return names.map((n) => {
      const i = atoms.findIndex((a) => a.name === n);
      return `${n} ${ctx.graph.types[i]} ${ctx.donors[i] ? `donor(${donorHydrogens(ctx, i).length})` : "-"} ${ctx.acceptors[i] ? "acceptor" : "-"}`;
    });
  }
  it("C2E: both guanines' N1–H (N1, N11) and N2H2 donors, N3/N7 acceptors; the phosphodiester O ionised acceptors", () => {
    expect(roles("C2E-ideal.pdb", ["N1", "N11", "N2", "N21", "N3", "N31", "N7", "N71", "O6", "O1P", "O11"])).toEqual([
      "N1 Npl donor(1) -",
      "N11 Npl donor(1) -",
      "N2 Npl donor(2) -",
      "N21 Npl donor(2) -",
      "N3 N2 - acceptor",
      "N31 N2 - acceptor",
      "N7 N2 - acceptor",
      "N71 N2 - acceptor",
      "O6 O2 - acceptor",
      "O1P O3- - acceptor",
      "O11 O3- - acceptor",
    ]);
  });
});

describe("STU end to end, on the monomer library's ideal coordinates (tests/fixtures/ccd/STU-ideal.pdb)", () => {
  it("staurosporine's lactam N1–H stays the hinge donor; inference from the same coordinates makes it an acceptor", () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/ccd/STU-ideal.pdb"), "utf8");
    const parsed = parsePdb(text, "STU-ideal.pdb");
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const roles = (resName: string) => {
      const atoms = parsed.structure.atoms.map((a) => ({ ...a, resName }));
      const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: atoms });
      return ["N1", "O5", "N4", "N2", "N3"].map((n) => {
        const i = atoms.findIndex((a) => a.name === n);
        return `${n} ${ctx.graph.types[i]} ${ctx.donors[i] ? `donor(${donorHydrogens(ctx, i).length})` : "-"} ${ctx.acceptors[i] ? "acceptor" : "-"}`;
      });
    };
    expect(roles("STU")).toEqual([
      "N1 Npl donor(1) -",
      "O5 O2 - acceptor",
      "N4 N3+ donor(2) -",
      "N2 Npl - -",
      "N3 Npl - -",
    ]);
    // The same atoms under an unknown residue name: the lactam N1 is typed an imine N (N2), an acceptor with no H.
    expect(roles("UNL")[0]).toBe("N1 N2 - acceptor");
  });
});

/** Shared wwPDB files holding an instance of a templated component (found with grep over HETATM records). */
const INSTANCES: Record<string, string[]> = {
  ADP: ["plip-test-pdb/1osn.pdb", "posebusters-conftest/7ZTL_BCN/7ZTL_BCN_protein.pdb"],
  GCP: ["plip-test-pdb/4dst.pdb"],
  NDP: ["plip-test-pdb/1n7g.pdb", "posebusters-conftest/1IA1_TQ3/1IA1_TQ3_no_ligand_no_solvent.pdb"],
  FMN: ["plip-test-pdb/1aku.pdb"],
  HEM: ["plip-test-pdb/2q8q.pdb", "posebusters-conftest/1G9V_RQ3/1G9V_RQ3_protein.pdb"],
  GP6: ["plip-test-pdb/1bju.pdb"],
  E20: ["plip-test-pdb/1eve.pdb"],
  THA: ["plip-test-pdb/1acj.pdb"],
  "032": ["plip-test-pdb/3og7.pdb"],
};

describeWithShared("templates against the instances in the shared wwPDB files", () => {
  for (const [id, files] of Object.entries(INSTANCES)) {
    it(`${id} (${files.map((f) => path.basename(f)).join(", ")}): every heavy atom is typed, every typed atom occurs`, () => {
      const template = COMPONENT_TEMPLATES.get(id)!;
      const seen = new Set<string>();
      let residues = 0;
      for (const file of files) {
        const parsed = parsePdb(fs.readFileSync(sharedStructurePath(...file.split("/")), "utf8"), path.basename(file));
        if (!parsed.ok) throw new Error(formatParseError(parsed.error));
        const atoms = parsed.structure.atoms.filter((a) => a.resName === id && a.element !== "H");
        residues += new Set(atoms.map((a) => `${a.chain}:${a.resSeq}`)).size;
        for (const a of atoms) {
          seen.add(a.name);
          if (UNTEMPLATED.has(a.element)) continue;
          expect(template.get(a.name)?.[0], `${file} ${id} ${a.chain}${a.resSeq} ${a.name}`).toBe(a.element);
        }
      }
      expect(residues).toBeGreaterThan(0);
      expect([...template.keys()].filter((n) => !seen.has(n))).toEqual([]);
    });
  }
});

describeWithShared("GSP end to end on real coordinates: 4dst's GCP made GTPγS (C3B → O3B, O1G → S1G)", () => {
  it("guanine N1–H donor and N3 acceptor despite N1–C2 1.346 Å < C2–N3 1.353 Å; S1G an acceptor with no H", () => {
    const parsed = parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "4dst.pdb"), "utf8"), "4dst.pdb");
    if (!parsed.ok) throw new Error(formatParseError(parsed.error));
    const gsp = parsed.structure.atoms
      .filter((a) => a.resName === "GCP" && a.chain === "A" && a.resSeq === 202)
      .map((a) => ({
        ...a,
        resName: "GSP",
        name: a.name === "C3B" ? "O3B" : a.name === "O1G" ? "S1G" : a.name,
        element: a.name === "C3B" ? "O" : a.name === "O1G" ? "S" : a.element,
      }));
    expect(gsp).toHaveLength(32);
    const ctx = prepareHBondContext({ pocketAtoms: [], ligandAtoms: gsp });
    const role = (n: string) => {
      const i = gsp.findIndex((a) => a.name === n);
      return `${n} ${ctx.graph.types[i]} ${ctx.donors[i] ? `donor(${donorHydrogens(ctx, i).length})` : "-"} ${ctx.acceptors[i] ? "acceptor" : "-"}`;
    };
    expect(["N1", "N3", "O6", "S1G", "O3B", "O2G"].map(role)).toEqual([
      "N1 Npl donor(1) -",
      "N3 N2 - acceptor",
      "O6 O2 - acceptor",
      "S1G S3- - acceptor",
      "O3B O3 - acceptor",
      "O2G O3- - acceptor",
    ]);
  });
});
