// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * T9 and T4 labels on real shared structures: every residue the key (T9) or the question (T4) names is
 * labelled in at least two of the six views on an atom no nearer ball hides, so are all contact-shell
 * residues (the guarantee cannot single out the key), no label box covers another label's text, and the
 * label font meets the question page's contract (≥ 21 px at 1,024 px: ≥ 12 CSS px on a 600-px image).
 * Which residues get labels is a function of the structure alone: two items with different keys on the
 * same complex get byte-identical images.
 */
import { describe, expect, it } from "vitest";
import { type GeneratedItem, generateItems, renderItemImages, renderItemViews } from "@/lib/generate";
import { auditItemLabels, namedResiduesOf, residueLabelTextsOf, viewsLabelling } from "@/lib/generate/label-coverage";
import { DEFAULT_RENDER_SETTINGS, LABEL_REFERENCE_SIZE_PX } from "@/lib/render/settings";
import { parseTexts } from "../render/svg-parse";
import { loadComplex, loadTestComplexes } from "./complexes";

/** The page shows the main image at least this wide (CSS px) at 1366×768; labels must read ≥ 12 CSS px there. */
const MAIN_IMAGE_MIN_CSS_PX = 600;
const MIN_LABEL_CSS_PX = 12;
const MIN_VIEWS = 2;

// 1n7g (NADP, 20+ contact residues, two chains) and 1hii (two-chain protease) are the most crowded pockets.
const complexes = [
  ...loadTestComplexes(),
  loadComplex({ pdbId: "1n7g", file: "plip-test-pdb/1n7g.pdb" }),
  loadComplex({ pdbId: "1bju", file: "plip-test-pdb/1bju.pdb" }),
];
const generated = generateItems({
  complexes,
  tasks: ["pocket_ligand", "residue_ligand"],
  perTask: 8,
  seed: "label-coverage",
});
if (!generated.ok) throw new Error(generated.error);
const audited = generated.items.map((item) => ({ item, audit: auditItemLabels(item, renderItemViews(item)) }));
const t9 = audited.filter(({ item }) => item.taskId === "pocket_ligand");
const t4 = audited.filter(({ item }) => item.taskId === "residue_ligand");

describe("T9 and T4 labels on the shared structures", () => {
  it("generates T9 items on the crowded pockets and T4 items", () => {
    expect(t9.map(({ item }) => item.pdbId)).toEqual(expect.arrayContaining(["1n7g", "1hii", "1bju"]));
    expect(t4.length).toBeGreaterThanOrEqual(6);
  });

  it.each(t9.map(({ item, audit }) => [item.pdbId, item, audit] as const))(
    "T9 %s: every key residue is labelled in ≥ 2 of the six views",
    (_id, item, audit) => {
      const named = namedResiduesOf(item);
      expect(named.length).toBeGreaterThan(0);
      for (const ref of named)
        expect(viewsLabelling(audit, ref), `${item.pdbId} ${residueLabelTextsOf(ref)[1]}`).toBeGreaterThanOrEqual(
          MIN_VIEWS,
        );
    },
  );

  it.each(t9.map(({ item, audit }) => [item.pdbId, audit] as const))(
    "T9 %s: so is every contact-shell residue, key or not",
    (_id, audit) => {
      expect(audit.contactResidueTexts.size).toBeGreaterThan(3);
      const short = [...audit.contactResidueTexts].filter((t) => (audit.residueViews.get(t) ?? 0) < MIN_VIEWS);
      expect(short).toEqual([]);
    },
  );

  it.each(t9.map(({ item, audit }) => [item.pdbId, item, audit] as const))(
    "T9 %s: every polar atom (N, O, S) of every contact-shell residue is named in a view, the key's atoms among them",
    (_id, item, audit) => {
      // The expected atoms from the complex itself: polar heavy atoms of residues with a heavy atom within the shell.
      const complex = item.complexes[0]!;
      const r = item.provenance.renderSettings.residueLabelContactA;
      const near = (i: number) => {
        const p = complex.pocketAtoms[i]!;
        return (
          p.element !== "H" &&
          complex.ligandAtoms.some(
            (l) => l.element !== "H" && (l.x - p.x) ** 2 + (l.y - p.y) ** 2 + (l.z - p.z) ** 2 <= r * r,
          )
        );
      };
      const polar = complex.residues
        .filter((res) => res.atomIndices.some(near))
        .flatMap((res) => res.atomIndices.filter((i) => ["N", "O", "S"].includes(complex.pocketAtoms[i]!.element)));
      expect(audit.residueAtomViews.size).toBe(polar.length);
      const unnamed = [...audit.residueAtomViews.entries()].filter(([, n]) => n === 0);
      expect(unnamed).toEqual([]);
      // Each key bond's residue atom is one of them: the key is covered, never singled out.
      const [front] = renderItemViews(item);
      const labelled = new Set(
        front!.scene.atoms.flatMap((a) =>
          a.labelKind === "residue-atom"
            ? [`${front!.scene.residueLabels[a.residueIndex]!.text.split(" ").slice(0, 2).join(" ")} ${a.label}`]
            : [],
        ),
      );
      for (const b of (
        item.gold as {
          bonds: { residueName: string; residueNumber: number; insertionCode: string; atomName: string }[];
        }
      ).bonds) {
        expect(labelled, `${b.residueName} ${b.residueNumber} ${b.atomName}`).toContain(
          `${b.residueName} ${b.residueNumber}${b.insertionCode} ${b.atomName}`,
        );
      }
    },
  );

  it("T9: the images themselves carry the residue-atom names, in the residues' carbon colours", () => {
    const { item } = t9.find(({ item }) => item.pdbId === "1n7g")!;
    const colors = new Set(item.provenance.renderSettings.colors.pocketCarbons);
    const views = renderItemViews(item);
    views.forEach(({ svg, stats }) => {
      let drawn = 0;
      for (const m of svg.matchAll(/<g [^>]*fill="(#[0-9A-F]{6})"[^>]*>(.*?)<\/g>/g))
        if (colors.has(m[1]!)) drawn += [...m[2]!.matchAll(/<text /g)].length;
      const placed = stats.labelsPlaced.filter((l) => l.kind === "residue-atom").length;
      expect(placed).toBeGreaterThan(10);
      expect(drawn).toBe(placed);
    });
  });

  it("T9 1n7g: key residues easily left unlabelled in all six views are labelled (ASP 40 A, SER 117 A)", () => {
    const { audit } = t9.find(({ item }) => item.pdbId === "1n7g")!;
    for (const text of ["ASP 40 A", "SER 117 A"])
      expect(audit.residueViews.get(text) ?? 0, text).toBeGreaterThanOrEqual(MIN_VIEWS);
  });

  it.each(t4.map(({ item, audit }) => [item.id, item, audit] as const))(
    "T4 %s: the question's residue is labelled in ≥ 2 views",
    (_id, item, audit) => {
      const [ref] = namedResiduesOf(item);
      expect(viewsLabelling(audit, ref!)).toBeGreaterThanOrEqual(MIN_VIEWS);
    },
  );

  it.each(audited.map(({ item, audit }) => [item.id, audit] as const))(
    "%s: every ligand atom is named in ≥ 2 views",
    (_id, audit) => {
      const short = [...audit.ligandAtomViews.entries()].filter(([, n]) => n < MIN_VIEWS);
      expect(short).toEqual([]);
    },
  );

  it.each(audited.map(({ item, audit }) => [item.id, audit] as const))(
    "%s: no label box covers another label's text, none is forced",
    (_id, audit) => {
      expect(audit.overlaps).toEqual([]);
      expect(audit.forced).toBe(0);
    },
  );
});

describe("label size contract", () => {
  it(`defaults: atom and residue labels ≥ ${MIN_LABEL_CSS_PX} CSS px on a ${MAIN_IMAGE_MIN_CSS_PX}-px image`, () => {
    for (const px of [DEFAULT_RENDER_SETTINGS.labelFontSizePx, DEFAULT_RENDER_SETTINGS.residueLabelFontSizePx]) {
      expect((px * MAIN_IMAGE_MIN_CSS_PX) / LABEL_REFERENCE_SIZE_PX).toBeGreaterThanOrEqual(MIN_LABEL_CSS_PX);
    }
  });

  it("every text in the generated SVGs meets it, and the settings stored with the item say so", () => {
    const { item } = t9[0]!;
    expect(item.provenance.renderSettings.labelFontSizePx).toBe(DEFAULT_RENDER_SETTINGS.labelFontSizePx);
    expect(item.provenance.renderSettingsVersion).toBe(4);
    for (const image of renderItemImages(item, "svg")) {
      const texts = parseTexts(new TextDecoder().decode(image.bytes));
      expect(texts.length).toBeGreaterThan(10);
      for (const t of texts)
        expect(
          (t.fontSizePx * MAIN_IMAGE_MIN_CSS_PX) / item.provenance.renderSettings.widthPx,
          t.text,
        ).toBeGreaterThanOrEqual(MIN_LABEL_CSS_PX);
    }
  });
});

describe("labels never depend on the answer key", () => {
  const svgsOf = (item: GeneratedItem) => renderItemImages(item, "svg").map((i) => new TextDecoder().decode(i.bytes));

  it("1bju T9 keyed on amino acids and on every pocket group (a different key): the same six images", () => {
    const bju = loadComplex({ pdbId: "1bju", file: "plip-test-pdb/1bju.pdb" });
    const make = (hbondPartners: "amino-acids" | "all-pocket-groups") => {
      const r = generateItems({
        complexes: [bju],
        tasks: ["pocket_ligand"],
        perTask: 1,
        seed: "key-free",
        params: { pocket_ligand: { hbondPartners } },
      });
      if (!r.ok) throw new Error(r.error);
      return r.items[0]!;
    };
    const amino = make("amino-acids");
    const all = make("all-pocket-groups");
    expect(all.canonicalAnswer).not.toBe(amino.canonicalAnswer); // the test can fail: the keys differ (SO4 901)
    expect(all.canonicalAnswer).toMatch(/SO4/);
    expect(svgsOf(all)).toEqual(svgsOf(amino));
  });

  it("an item rendered with its key removed or replaced gives the same images", () => {
    const { item } = t9[0]!;
    const keyless = { ...item, gold: { kind: "bonds", bonds: [] }, canonicalAnswer: "" };
    expect(svgsOf(keyless)).toEqual(svgsOf(item));
  });

  it("the contact shell is the plain distance rule (heavy atom within the settings' radius of a ligand heavy atom)", () => {
    const { item } = t9.find(({ item }) => item.pdbId === "1n7g")!;
    const complex = item.complexes[0]!;
    const r = item.provenance.renderSettings.residueLabelContactA;
    const expected = complex.residues
      .filter((res) =>
        res.atomIndices.some((i) => {
          const p = complex.pocketAtoms[i]!;
          return (
            p.element !== "H" &&
            complex.ligandAtoms.some(
              (l) => l.element !== "H" && (l.x - p.x) ** 2 + (l.y - p.y) ** 2 + (l.z - p.z) ** 2 <= r * r,
            )
          );
        }),
      )
      .map((res) => `${res.key.resName} ${res.key.resSeq}${res.key.iCode} ${res.key.chain}`)
      .sort();
    const [front] = renderItemViews(item);
    const flagged = front!.scene.residueLabels
      .filter((l) => l.contact)
      .map((l) => l.text)
      .sort();
    expect(flagged).toEqual(expected);
    // Every key residue lies inside it (an H-bond is shorter than the shell), so the guarantee covers the key.
    for (const ref of namedResiduesOf(item)) expect(flagged).toContain(residueLabelTextsOf(ref)[1]);
  });
});
