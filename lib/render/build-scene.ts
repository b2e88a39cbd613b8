/**
 * Builds a renderer-ready `Scene` from parsed atoms: hydrogens dropped (spec §2), coordinates moved to
 * the screen frame and through the view's model transform, carbons' residue order and labels
 * resolved, the camera framed. Bonds come from the caller (file bonds or bond perception).
 */
import { type PerspectiveCamera, frameCamera } from "@/lib/molecule/geometry/camera";
import { type RigidTransform, applyTransform } from "@/lib/molecule/geometry/transform";
import { type Vec3, boundingSphereOf, distanceSquaredVec } from "@/lib/molecule/geometry/vec3";
import { type Atom, type Bond, positionOf } from "@/lib/molecule/types";
import type { AtomRole, Scene, SceneAtom, SceneBond, SceneResidueLabel } from "./scene";
import { DEFAULT_RENDER_SETTINGS, type RenderSettings } from "./settings";

export interface BuildSceneOptions {
  ligand: readonly Atom[];
  pocket: readonly Atom[];
  /** Atoms shown as neither pocket nor ligand (rest of the complex); carbons get the "other" colour. */
  others?: readonly Atom[];
  /** Bonds by index into the concatenation ligand ++ pocket ++ others. Bonds to hydrogens are dropped. */
  bonds: readonly (Bond | SceneBond)[];
  /** View centre in file coordinates; default: centre of the bounding box of the shown atoms (ChimeraX). */
  viewCentre?: Vec3;
  /** Model transform in the screen frame (canonical view, view commands); default identity. */
  transform?: RigidTransform;
  /**
   * Camera of the view. Default: framed on the untransformed front view (rotation-invariant about
   * the view centre), so every view of one item shares one camera and `move z` really zooms.
   */
  camera?: PerspectiveCamera;
  settings?: RenderSettings;
  /**
   * Label every pocket atom with its atom name too, and require every atom label to be drawn (T4:
   * the answer names the residue's atoms, and the paper's T4 images label each of them).
   */
  labelPocketAtoms?: boolean;
  /**
   * Label every polar atom (N, O, S) of every contact-shell residue with its atom name, as a residue-atom
   * label (T8, T9: the answer names residue atoms). A rule of the structure alone: the key's atoms are
   * among them, never singled out.
   */
  labelContactPolarAtoms?: boolean;
}

/** Elements of a residue's H-bond donors and acceptors: the atoms an answer may name. */
export const POLAR_ELEMENTS: ReadonlySet<string> = new Set(["N", "O", "S"]);

export type BuildSceneResult = { ok: true; scene: Scene } | { ok: false; reason: string };

/** "ARG 45", "GLY 27A"; with the chain ("ARG 45 A") when the pocket spans more than one chain. */
export function formatResidueLabel(
  atom: Pick<Atom, "resName" | "resSeq" | "iCode" | "chain">,
  withChain: boolean,
): string {
  const base = `${atom.resName} ${atom.resSeq}${atom.iCode}`;
  return withChain && atom.chain !== "" ? `${base} ${atom.chain}` : base;
}

function residueKey(atom: Atom): string {
  return `${atom.chain}\u0000${atom.resSeq}\u0000${atom.iCode}\u0000${atom.resName}`;
}

/** Builds the scene of one view. Fails (with the offending index) on a bond that points nowhere. */
export function buildScene(options: BuildSceneOptions): BuildSceneResult {
  const settings = options.settings ?? DEFAULT_RENDER_SETTINGS;
  const groups: [readonly Atom[], AtomRole][] = [
    [options.ligand, "ligand"],
    [options.pocket, "pocket"],
    [options.others ?? [], "other"],
  ];
  const input: { atom: Atom; role: AtomRole }[] = groups.flatMap(([atoms, role]) =>
    atoms.map((atom) => ({ atom, role })),
  );

  const newIndex = new Int32Array(input.length).fill(-1);
  const kept: { atom: Atom; role: AtomRole }[] = [];
  input.forEach((entry, i) => {
    if (entry.atom.element === "H") return;
    newIndex[i] = kept.length;
    kept.push(entry);
  });
  if (kept.length === 0) return { ok: false, reason: "buildScene: no heavy atoms to show" };

  const bonds: SceneBond[] = [];
  for (const [i, bond] of options.bonds.entries()) {
    if (
      !Number.isInteger(bond.a) ||
      !Number.isInteger(bond.b) ||
      bond.a < 0 ||
      bond.b < 0 ||
      bond.a >= input.length ||
      bond.b >= input.length
    ) {
      return {
        ok: false,
        reason: `buildScene: bonds[${i}] joins atoms ${bond.a}–${bond.b}, outside 0..${input.length - 1}`,
      };
    }
    const a = newIndex[bond.a]!;
    const b = newIndex[bond.b]!;
    if (a < 0 || b < 0 || a === b) continue;
    bonds.push(bond.order === undefined ? { a, b } : { a, b, order: bond.order });
  }

  const filePositions = kept.map(({ atom }) => positionOf(atom));
  const centre = options.viewCentre ?? boundingSphereOf(filePositions)!.centre;
  const front: Vec3[] = filePositions.map((p) => [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]]);
  const positions = options.transform ? front.map((p) => applyTransform(options.transform!, p)) : front;
  const camera = options.camera ?? frameCamera(front, { widthPx: settings.widthPx, heightPx: settings.heightPx });

  // Residue order for colour alternation and labels: first appearance among the pocket atoms.
  const residueOrder = new Map<string, number>();
  const residueAtoms: number[][] = [];
  const chains = new Set<string>();
  const atoms: SceneAtom[] = kept.map(({ atom, role }, i) => {
    let residueIndex = 0;
    if (role === "pocket") {
      const key = residueKey(atom);
      let r = residueOrder.get(key);
      if (r === undefined) {
        r = residueOrder.size;
        residueOrder.set(key, r);
        residueAtoms.push([]);
      }
      residueAtoms[r]!.push(i);
      chains.add(atom.chain);
      residueIndex = r;
    }
    const sceneAtom: SceneAtom = {
      position: positions[i]!,
      element: atom.element,
      role,
      residueIndex,
      atomName: atom.name,
    };
    if (role === "ligand" || (role === "pocket" && options.labelPocketAtoms === true)) sceneAtom.label = atom.name;
    return sceneAtom;
  });

  // Each residue label hangs on the residue atom nearest the residue's centroid: on the residue, and
  // away from the backbone ends that neighbouring residues crowd.
  const withChain = chains.size > 1;
  const ligandPositions = kept.flatMap(({ role }, i) => (role === "ligand" ? [positions[i]!] : []));
  const contact2 = settings.residueLabelContactA ** 2;
  const residueLabels: SceneResidueLabel[] = residueAtoms.map((members) => {
    const c: [number, number, number] = [0, 0, 0];
    for (const k of members) {
      const p = positions[k]!;
      c[0] += p[0] / members.length;
      c[1] += p[1] / members.length;
      c[2] += p[2] / members.length;
    }
    let anchor = members[0]!;
    for (const k of members) {
      if (distanceSquaredVec(positions[k]!, c) < distanceSquaredVec(positions[anchor]!, c)) anchor = k;
    }
    const contact = members.some((k) => ligandPositions.some((q) => distanceSquaredVec(positions[k]!, q) <= contact2));
    return {
      text: formatResidueLabel(kept[anchor]!.atom, withChain),
      anchorAtomIndex: anchor,
      atomIndices: members,
      contact,
    };
  });
  if (options.labelContactPolarAtoms === true) {
    residueLabels.forEach((label, r) => {
      if (!label.contact) return;
      for (const k of residueAtoms[r]!) {
        const name = atoms[k]!.atomName;
        if (POLAR_ELEMENTS.has(atoms[k]!.element) && name !== undefined && name.length > 0) {
          atoms[k]!.label = name;
          atoms[k]!.labelKind = "residue-atom";
        }
      }
    });
  }
  const residueNames = residueAtoms.map((members) => formatResidueLabel(kept[members[0]!]!.atom, true));

  return {
    ok: true,
    scene: {
      atoms,
      bonds,
      residueLabels,
      residueNames,
      camera,
      ...(options.labelPocketAtoms === true ? { atomLabelsRequired: true } : {}),
    },
  };
}
