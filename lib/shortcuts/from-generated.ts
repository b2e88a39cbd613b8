/**
 * Shortcut-audit data of a freshly generated item (lib/generate): option poses from its option views, polar
 * distances from its complex. Runs where the generator runs (CLI, bench); nothing of it is stored with the item.
 */
import { applyCommands } from "@/lib/molecule/geometry/commands";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import { computeRmsd } from "@/lib/generate/distractors";
import { toFrontFrame } from "@/lib/generate/scene";
import type { ComplexResidue, GeneratedItem, GeneratorComplex } from "@/lib/generate/types";
import type { PolarContact, ShortcutItem } from "./strategies";

/** Polar pairs farther apart than this are never listed by any polar-distance rule. */
const CONTACT_CUTOFF_A = 5;
const POLAR = new Set(["N", "O"]);

/** The option views of an MC option-image item: its last four views, in letter order. */
function optionPoses(item: GeneratedItem): Vec3[][] | null {
  if (item.taskId !== "translation_rotation" && item.taskId !== "rotation_rotation") return null;
  const views = item.views.slice(-4);
  if (views.length !== 4) return null;
  return views.map((view) => {
    const complex = item.complexes[view.source]!;
    const front = toFrontFrame([...complex.ligandAtoms, ...complex.pocketAtoms], view.viewCentre);
    return applyCommands(front, view.modelCommands, [0, 0, 0]);
  });
}

export function rmsdMatrix(poses: readonly (readonly Vec3[])[]): number[][] {
  return poses.map((a, i) => poses.map((b, j) => (i === j ? 0 : computeRmsd(a, b))));
}

/** Every polar pocket–ligand atom pair within CONTACT_CUTOFF_A, over the given residues (those an answer can name). */
export function listPolarContacts(complex: GeneratorComplex, residues: readonly ComplexResidue[]): PolarContact[] {
  const ligand = complex.ligandAtoms.filter((a) => POLAR.has(a.element.toUpperCase()));
  const out: PolarContact[] = [];
  for (const residue of residues) {
    if (!residue.ref) continue;
    for (const index of residue.atomIndices) {
      const p = complex.pocketAtoms[index]!;
      if (!POLAR.has(p.element.toUpperCase())) continue;
      for (const l of ligand) {
        const d = Math.hypot(p.x - l.x, p.y - l.y, p.z - l.z);
        if (d > CONTACT_CUTOFF_A) continue;
        out.push({
          ...residue.ref,
          insertionCode: residue.ref.insertionCode ?? "",
          atomName: p.name,
          ligandAtomName: l.name,
          distanceA: d,
        });
      }
    }
  }
  return out.sort((a, b) => a.distanceA - b.distanceA);
}

/** The residues a polar-distance rule looks at: T4 the question's residue, T9 every nameable non-water pocket residue. */
function contactResidues(item: GeneratedItem): ComplexResidue[] | null {
  const complex = item.complexes[0];
  if (!complex) return null;
  if (item.taskId === "residue_ligand") {
    const id = item.views[0]?.residueId;
    const residue = complex.residues.find((r) => r.id === id);
    return residue ? [residue] : null;
  }
  if (item.taskId === "pocket_ligand") return complex.residues.filter((r) => r.ref !== null && r.kind !== "water");
  return null;
}

export function toShortcutItem(item: GeneratedItem): ShortcutItem {
  const out: ShortcutItem = {
    taskId: item.taskId,
    gold: item.gold,
    canonicalAnswer: item.canonicalAnswer,
    keyOrigin: { kind: "generated", params: item.provenance.params },
  };
  const poses = optionPoses(item);
  if (poses) out.optionPoseRmsd = rmsdMatrix(poses);
  const residues = contactResidues(item);
  if (residues) out.polarContacts = listPolarContacts(item.complexes[0]!, residues);
  return out;
}
