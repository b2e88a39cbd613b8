/**
 * What the labels of an item's images let a participant read: in how many views each residue's
 * label sits on a visible atom, how many ligand atoms go unnamed, and which labels cover another
 * label's text. Used by tests and `npm run bench:labels`; it reads the renderer's own placement.
 */
import { findHiddenAtoms, findLabelOverlaps, type LabelOverlap } from "@/lib/render/label-audit";
import { POLAR_ELEMENTS } from "@/lib/render/build-scene";
import { projectBalls } from "@/lib/render/svg";
import type { ResidueRef } from "@/lib/tasks/fields";
import type { RenderedView } from "./index";
import type { GeneratedItem } from "./types";

export interface ItemLabelAudit {
  views: number;
  /** Residue label text → number of views in which that label is drawn on an atom no nearer ball hides. */
  residueViews: Map<string, number>;
  /** Every residue label text the views could show. */
  residueTexts: Set<string>;
  /** Labels of residues with a heavy atom within the contact shell (render settings) of a ligand heavy atom. */
  contactResidueTexts: Set<string>;
  /** Ligand atom index → number of views in which its name is drawn. */
  ligandAtomViews: Map<number, number>;
  /**
   * Polar atoms (N, O, S) of contact-shell residues that carry a residue-atom label (T8, T9), by atom index →
   * number of views in which their name is drawn on them while no nearer ball hides them.
   */
  residueAtomViews: Map<number, number>;
  /** Ligand atom labels asked for in some view (atom drawn) but not placed there. */
  ligandLabelsSkipped: number;
  ligandLabelsRequested: number;
  overlaps: (LabelOverlap & { view: string })[];
  /** Labels drawn although they overlap another (required labels with no free place). */
  forced: number;
  fontSizesPx: { atom: number[]; residue: number[]; residueAtom: number[] };
}

export function auditItemLabels(item: GeneratedItem, rendered: readonly RenderedView[]): ItemLabelAudit {
  const settings = item.provenance.renderSettings;
  const audit: ItemLabelAudit = {
    views: rendered.length,
    residueViews: new Map(),
    residueTexts: new Set(),
    contactResidueTexts: new Set(),
    ligandAtomViews: new Map(),
    residueAtomViews: new Map(),
    ligandLabelsSkipped: 0,
    ligandLabelsRequested: 0,
    overlaps: [],
    forced: 0,
    fontSizesPx: { atom: [], residue: [], residueAtom: [] },
  };
  for (const { view, scene, stats } of rendered) {
    const balls = projectBalls(
      scene,
      { ...scene.camera, widthPx: settings.widthPx, heightPx: settings.heightPx },
      settings,
    );
    const hidden = findHiddenAtoms(balls);
    for (const l of scene.residueLabels) audit.residueTexts.add(l.text);
    const ligand = scene.atoms.filter((a) => a.role === "ligand" && a.element !== "H").map((a) => a.position);
    const limit2 = settings.residueLabelContactA ** 2;
    const inShell = new Set<number>();
    for (const a of scene.atoms) {
      if (a.role !== "pocket" || a.element === "H" || inShell.has(a.residueIndex)) continue;
      const p = a.position;
      if (ligand.some((q) => (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2 <= limit2))
        inShell.add(a.residueIndex);
    }
    for (const k of inShell) if (scene.residueLabels[k]) audit.contactResidueTexts.add(scene.residueLabels[k].text);
    const placedLigand = new Set<number>();
    for (const label of stats.labelsPlaced) {
      if (label.forced) audit.forced++;
      if (label.kind === "residue") {
        audit.fontSizesPx.residue.push(label.fontSizePx);
        if (label.anchorAtomIndex !== undefined && !hidden[label.anchorAtomIndex]) {
          audit.residueViews.set(label.text, (audit.residueViews.get(label.text) ?? 0) + 1);
        }
      } else if (label.kind === "residue-atom") {
        audit.fontSizesPx.residueAtom.push(label.fontSizePx);
        const a = label.anchorAtomIndex;
        if (a !== undefined && !hidden[a]) audit.residueAtomViews.set(a, (audit.residueAtomViews.get(a) ?? 0) + 1);
      } else {
        audit.fontSizesPx.atom.push(label.fontSizePx);
        const a = label.anchorAtomIndex;
        if (a !== undefined && scene.atoms[a]?.role === "ligand") {
          placedLigand.add(a);
          audit.ligandAtomViews.set(a, (audit.ligandAtomViews.get(a) ?? 0) + 1);
        }
      }
    }
    scene.atoms.forEach((atom, i) => {
      if (
        atom.role === "pocket" &&
        inShell.has(atom.residueIndex) &&
        POLAR_ELEMENTS.has(atom.element) &&
        !audit.residueAtomViews.has(i)
      ) {
        if (item.views.some((v) => v.residueAtomLabels === true)) audit.residueAtomViews.set(i, 0);
      }
      if (atom.role !== "ligand" || !atom.label || !balls[i]!.visible) return;
      audit.ligandLabelsRequested++;
      if (!placedLigand.has(i)) audit.ligandLabelsSkipped++;
      if (!audit.ligandAtomViews.has(i)) audit.ligandAtomViews.set(i, 0);
    });
    for (const o of findLabelOverlaps(stats.labelsPlaced)) audit.overlaps.push({ ...o, view: view.caption });
  }
  return audit;
}

/** The texts a residue's label can have: "ASP 25" in a one-chain view, "ASP 25 A" when the view spans chains. */
export function residueLabelTextsOf(ref: ResidueRef): [string, string] {
  const base = `${ref.residueName.toUpperCase()} ${ref.residueNumber}${ref.insertionCode.toUpperCase()}`;
  return [base, `${base} ${ref.chainId}`];
}

/** Views in which the residue's label is readable (see `ItemLabelAudit.residueViews`). */
export function viewsLabelling(audit: ItemLabelAudit, ref: ResidueRef): number {
  return residueLabelTextsOf(ref).reduce((n, t) => n + (audit.residueViews.get(t) ?? 0), 0);
}

/** Residues an item's key or question names: T9 key residues, T4 the question's residue. */
export function namedResiduesOf(item: GeneratedItem): ResidueRef[] {
  if (item.taskId === "residue_ligand") return [(item.fields as { residue: ResidueRef }).residue];
  if (item.taskId === "pocket_ligand") {
    const bonds = (item.gold as { bonds: (ResidueRef & { atomName: string })[] }).bonds;
    const seen = new Map<string, ResidueRef>();
    for (const b of bonds) {
      const ref: ResidueRef = {
        residueName: b.residueName,
        residueNumber: b.residueNumber,
        insertionCode: b.insertionCode,
        chainId: b.chainId,
      };
      seen.set(residueLabelTextsOf(ref)[1], ref);
    }
    return [...seen.values()];
  }
  return [];
}
