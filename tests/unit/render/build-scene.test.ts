import { describe, expect, it } from "vitest";
import { frameCamera } from "@/lib/molecule/geometry/camera";
import { canonicalViewTransform } from "@/lib/molecule/geometry/commands";
import type { Atom } from "@/lib/molecule/types";
import {
  DEFAULT_RENDER_SETTINGS,
  RENDER_SETTINGS_VERSION,
  RenderSettingsSchema,
  buildScene,
  formatResidueLabel,
  parseRenderSettings,
  renderSvgWithStats,
} from "@/lib/render";

function pdbAtom(
  name: string,
  element: string,
  resName: string,
  resSeq: number,
  xyz: [number, number, number],
  chain = "A",
): Atom {
  return {
    serial: 0,
    name,
    element,
    resName,
    chain,
    resSeq,
    iCode: "",
    altLoc: "",
    occupancy: 1,
    tempFactor: 0,
    hetero: resName === "LIG",
    formalCharge: 0,
    x: xyz[0],
    y: xyz[1],
    z: xyz[2],
  };
}

const ligand = [
  pdbAtom("C1", "C", "LIG", 1, [10, 0, 0]),
  pdbAtom("H1", "H", "LIG", 1, [10.5, 0.9, 0]),
  pdbAtom("O1", "O", "LIG", 1, [11.2, 0, 0]),
];
const pocket = [
  pdbAtom("CA", "C", "ARG", 45, [6, 0, 0]),
  pdbAtom("CD", "C", "ARG", 45, [6, 1.4, 0]),
  pdbAtom("NE", "N", "ARG", 45, [6, 2.8, 0]),
  pdbAtom("CA", "C", "GLY", 46, [6, -3, 0]),
  pdbAtom("CA", "C", "SER", 47, [6, -6, 0]),
];

describe("buildScene", () => {
  const result = buildScene({
    ligand,
    pocket,
    bonds: [
      { a: 0, b: 1, order: 1 }, // C1–H1: dropped with the hydrogen
      { a: 0, b: 2, order: 2 },
      { a: 3, b: 4, order: 1 },
    ],
  });
  if (!result.ok) throw new Error(result.reason);
  const { scene } = result;

  it("drops hydrogens and re-indexes bonds onto the kept atoms", () => {
    expect(scene.atoms.map((a) => a.element)).toEqual(["C", "O", "C", "C", "N", "C", "C"]);
    expect(scene.bonds).toEqual([
      { a: 0, b: 1, order: 2 },
      { a: 2, b: 3, order: 1 },
    ]);
  });

  it("labels ligand atoms with their names and numbers pocket residues in order", () => {
    expect(scene.atoms.map((a) => a.label)).toEqual([
      "C1",
      "O1",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(scene.atoms.map((a) => a.role)).toEqual([
      "ligand",
      "ligand",
      "pocket",
      "pocket",
      "pocket",
      "pocket",
      "pocket",
    ]);
    expect(scene.atoms.slice(2).map((a) => a.residueIndex)).toEqual([0, 0, 0, 1, 2]);
    expect(scene.residueLabels.map((l) => l.text)).toEqual(["ARG 45", "GLY 46", "SER 47"]);
    // ARG 45's label hangs on CD, the atom nearest the residue's centroid.
    expect(scene.residueLabels.map((l) => l.anchorAtomIndex)).toEqual([3, 5, 6]);
  });

  it("centres on the bounding box of the shown heavy atoms and frames the camera on them", () => {
    // Heavy atoms span x 6..11.2 and y −6..2.8: centre (8.6, −1.6, 0).
    const c1 = scene.atoms[0]!.position;
    expect(c1[0]).toBeCloseTo(1.4, 12);
    expect(c1[1]).toBeCloseTo(1.6, 12);
    const expected = frameCamera(
      scene.atoms.map((a) => a.position),
      { widthPx: 1024, heightPx: 1024 },
    );
    expect(scene.camera).toEqual(expected);
  });

  it("applies the view transform but keeps the front view's camera", () => {
    const left = buildScene({ ligand, pocket, bonds: [], transform: canonicalViewTransform("left") });
    if (!left.ok) throw new Error(left.reason);
    // roll y +90 takes (1.4, 1.6, 0) to (0, 1.6, −1.4).
    const p = left.scene.atoms[0]!.position;
    expect(p[0]).toBeCloseTo(0, 12);
    expect(p[1]).toBeCloseTo(1.6, 12);
    expect(p[2]).toBeCloseTo(-1.4, 12);
    expect(left.scene.camera).toEqual(scene.camera);
  });

  it("adds the chain to residue labels only when the pocket spans chains", () => {
    expect(formatResidueLabel({ resName: "GLY", resSeq: 27, iCode: "A", chain: "B" }, false)).toBe("GLY 27A");
    const twoChains = buildScene({
      ligand,
      pocket: [pocket[0]!, pdbAtom("CA", "C", "ASP", 12, [0, 0, 0], "B")],
      bonds: [],
    });
    if (!twoChains.ok) throw new Error(twoChains.reason);
    expect(twoChains.scene.residueLabels.map((l) => l.text)).toEqual(["ARG 45 A", "ASP 12 B"]);
  });

  it("fails clearly on a bond that points nowhere, or with nothing to show", () => {
    expect(buildScene({ ligand, pocket, bonds: [{ a: 0, b: 9, order: 1 }] })).toEqual({
      ok: false,
      reason: "buildScene: bonds[0] joins atoms 0–9, outside 0..7",
    });
    expect(buildScene({ ligand: [ligand[1]!], pocket: [], bonds: [] })).toEqual({
      ok: false,
      reason: "buildScene: no heavy atoms to show",
    });
  });
});

describe("render settings", () => {
  it("defaults to the spec's style at 1024×1024 and records its version", () => {
    expect(DEFAULT_RENDER_SETTINGS).toMatchObject({
      version: RENDER_SETTINGS_VERSION,
      widthPx: 1024,
      heightPx: 1024,
      backgroundColor: "#000000",
      ballRadiusScale: 0.25,
      stickRadiusA: 0.2,
      colors: { pocketCarbons: ["#BF99F2", "#F2B366"], oxygen: "#FF0D0D", nitrogen: "#3050F8" },
    });
  });

  it("round-trips through JSON (what an item stores)", () => {
    const stored = JSON.parse(JSON.stringify(RenderSettingsSchema.parse({ widthPx: 512, heightPx: 512 })));
    expect(parseRenderSettings(stored)).toEqual({
      ok: true,
      settings: { ...DEFAULT_RENDER_SETTINGS, widthPx: 512, heightPx: 512 },
    });
  });

  it("names the bad field", () => {
    const bad = parseRenderSettings({ widthPx: 0, colors: { oxygen: "red" } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.reason).toContain("widthPx");
      expect(bad.reason).toContain("colors.oxygen: expected a colour as #RRGGBB");
    }
    expect(parseRenderSettings({ version: 99 }).ok).toBe(false);
  });
});

describe("buildScene: residue-atom labels (T8, T9)", () => {
  // Ligand C1 (10,0,0), O1 (11.2,0,0); contact shell 4.5 Å. ARG 45: CA 4.0 Å from C1 (in the shell), so
  // its NE (4.9 Å) and O are named too. GLY 46: N 5.0 Å from C1, outside. SER 47: OG 6.7 Å, outside.
  const shellPocket = [
    pdbAtom("CA", "C", "ARG", 45, [6, 0, 0]),
    pdbAtom("NE", "N", "ARG", 45, [6, 2.8, 0]),
    pdbAtom("O", "O", "ARG", 45, [5, 0, 1]),
    pdbAtom("N", "N", "GLY", 46, [6, -3, 0]),
    pdbAtom("CA", "C", "GLY", 46, [6, -4, 0]),
    pdbAtom("OG", "O", "SER", 47, [7, -6, 0]),
    pdbAtom("SG", "S", "CYS", 48, [7.5, 3, 0]),
  ];
  const build = (labelContactPolarAtoms: boolean) => {
    const r = buildScene({ ligand, pocket: shellPocket, bonds: [], labelContactPolarAtoms });
    if (!r.ok) throw new Error(r.reason);
    return r.scene;
  };

  it("names every N, O and S of the contact-shell residues, and nothing else, as residue-atom labels", () => {
    const scene = build(true);
    const labelled = scene.atoms.flatMap((a) => (a.label ? [[a.role, a.label, a.labelKind ?? "atom"]] : []));
    // CYS 48 SG: 3.9 Å from C1, so CYS 48 is in the shell and its S is named.
    expect(labelled).toEqual([
      ["ligand", "C1", "atom"],
      ["ligand", "O1", "atom"],
      ["pocket", "NE", "residue-atom"],
      ["pocket", "O", "residue-atom"],
      ["pocket", "SG", "residue-atom"],
    ]);
  });

  it("leaves pocket atoms unnamed without the option (T1–T3, T7 views)", () => {
    expect(build(false).atoms.filter((a) => a.role === "pocket" && a.label !== undefined)).toEqual([]);
  });

  it("draws residue-atom labels in their residue's carbon colour, apart from the white ligand names, as their own label kind", () => {
    const scene = build(true);
    const { svg, stats } = renderSvgWithStats(scene, DEFAULT_RENDER_SETTINGS);
    const textsByFill = new Map<string, string[]>();
    for (const m of svg.matchAll(
      /<g font-family="[^"]*" font-weight="bold" font-size="[^"]*" text-anchor="middle" fill="(#[0-9A-F]{6})"[^>]*>(.*?)<\/g>/g,
    )) {
      textsByFill.set(m[1]!, [
        ...(textsByFill.get(m[1]!) ?? []),
        ...[...m[2]!.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((t) => t[1]!),
      ]);
    }
    const [even, odd] = DEFAULT_RENDER_SETTINGS.colors.pocketCarbons;
    // ARG 45 is residue 0 (first carbon colour); CYS 48 is residue 3 (second).
    expect(textsByFill.get(even)?.sort()).toEqual(["NE", "O"]);
    expect(textsByFill.get(odd)).toEqual(["SG"]);
    expect(textsByFill.get(DEFAULT_RENDER_SETTINGS.labelColor)).toEqual(expect.arrayContaining(["C1", "O1", "ARG 45"]));
    expect(
      stats.labelsPlaced
        .filter((l) => l.kind === "residue-atom")
        .map((l) => l.text)
        .sort(),
    ).toEqual(["NE", "O", "SG"]);
  });
});
