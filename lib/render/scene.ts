/**
 * A fully resolved, renderer-ready scene: everything the static renderer needs and nothing it must
 * look up. Positions are in the screen frame of the view being drawn (Å; X right, Y up, Z toward the
 * viewer, spec §2), i.e. after the view's model transform. Build one with `buildScene` or by hand.
 */
import type { BondOrder } from "@/lib/molecule/types";
import type { PerspectiveCamera } from "@/lib/molecule/geometry/camera";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";

export type AtomRole = "pocket" | "ligand" | "other";

export interface SceneAtom {
  /** Screen-frame position in Å. */
  position: Vec3;
  /** Element symbol as in lib/molecule ("C", "Fe"). */
  element: string;
  role: AtomRole;
  /** Order of the atom's residue among the shown residues; pocket carbons alternate colour on it. */
  residueIndex: number;
  /** Text drawn next to the atom (ligand atoms carry their atom name; T4 residue atoms too). */
  label?: string;
  /**
   * "residue-atom": the label names an atom of a pocket residue beside the ligand's own atom names (T8, T9),
   * so it is drawn apart from them, in its residue's carbon colour. Default: an atom label.
   */
  labelKind?: "residue-atom";
  /** The atom's name in its file ("OD2"); never drawn by the static renderer (the 3D view shows it on hover). */
  atomName?: string;
}

export interface SceneBond {
  /** Atom indices into `Scene.atoms`. */
  a: number;
  b: number;
  order?: BondOrder;
}

export interface SceneResidueLabel {
  /** "ARG 45" (with the chain when the view spans chains). */
  text: string;
  /** Index into `Scene.atoms` of the atom the label sits next to. */
  anchorAtomIndex: number;
  /**
   * The residue's atoms (indices into `Scene.atoms`). When given, each image hangs the label on the
   * member nearest the residue's centre that no nearer ball hides, and leaves a hidden residue unlabelled.
   */
  atomIndices?: number[];
  /** The residue has a heavy atom within the contact shell (render settings) of a ligand heavy atom. */
  contact?: boolean;
}

export interface Scene {
  atoms: SceneAtom[];
  bonds: SceneBond[];
  residueLabels: SceneResidueLabel[];
  /** Full name of each residue index, chain included ("ASP 25 A"), for the 3D view's hover names. */
  residueNames?: string[];
  /**
   * Field of view, distance and near plane of the view. The image size comes from the render
   * settings (the camera's widthPx/heightPx are replaced by them), so one scene renders at any size.
   */
  camera: PerspectiveCamera;
  /**
   * Every atom label must be drawn (T4: the answer names these atoms): a label with no free place is
   * drawn where it overlaps the fewest labels instead of being skipped.
   */
  atomLabelsRequired?: boolean;
}

const ROLES: ReadonlySet<string> = new Set<AtomRole>(["pocket", "ligand", "other"]);

/**
 * Problems that make a scene unrenderable, each naming the field ("atoms[3].position: not finite").
 * Empty when the scene is fine.
 */
export function validateScene(scene: Scene): string[] {
  const problems: string[] = [];
  const n = scene.atoms.length;
  scene.atoms.forEach((atom, i) => {
    if (atom.position.length !== 3 || !atom.position.every(Number.isFinite)) {
      problems.push(`atoms[${i}].position: expected 3 finite numbers, got [${atom.position.join(", ")}]`);
    }
    if (typeof atom.element !== "string" || atom.element.length === 0) {
      problems.push(`atoms[${i}].element: empty element symbol`);
    }
    if (!ROLES.has(atom.role)) problems.push(`atoms[${i}].role: "${String(atom.role)}" is not pocket, ligand or other`);
    if (!Number.isInteger(atom.residueIndex) || atom.residueIndex < 0) {
      problems.push(`atoms[${i}].residueIndex: expected a non-negative integer, got ${atom.residueIndex}`);
    }
  });
  const isAtomIndex = (k: number) => Number.isInteger(k) && k >= 0 && k < n;
  scene.bonds.forEach((bond, i) => {
    if (!isAtomIndex(bond.a) || !isAtomIndex(bond.b)) {
      problems.push(`bonds[${i}]: atom index ${bond.a}–${bond.b} outside 0..${n - 1}`);
    } else if (bond.a === bond.b) {
      problems.push(`bonds[${i}]: bonds atom ${bond.a} to itself`);
    }
  });
  scene.residueLabels.forEach((label, i) => {
    if (!isAtomIndex(label.anchorAtomIndex)) {
      problems.push(`residueLabels[${i}].anchorAtomIndex: ${label.anchorAtomIndex} outside 0..${n - 1}`);
    }
    if (label.atomIndices && !label.atomIndices.every(isAtomIndex)) {
      problems.push(`residueLabels[${i}].atomIndices: an index outside 0..${n - 1}`);
    }
  });
  const cam = scene.camera;
  if (!(cam.fieldOfViewDeg > 0 && cam.fieldOfViewDeg < 180)) {
    problems.push(`camera.fieldOfViewDeg: ${cam.fieldOfViewDeg} is not in (0, 180)`);
  }
  if (!(Number.isFinite(cam.distanceA) && cam.distanceA > 0))
    problems.push(`camera.distanceA: ${cam.distanceA} is not a positive number`);
  if (!(Number.isFinite(cam.nearA) && cam.nearA > 0))
    problems.push(`camera.nearA: ${cam.nearA} is not a positive number`);
  return problems;
}
