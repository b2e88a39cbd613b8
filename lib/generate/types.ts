/**
 * Types of the item generator: the complexes it draws from, the views an item shows, and the
 * generated item (public fields, private gold, views, provenance).
 */
import type { CanonicalViewName, ViewCommand } from "@/lib/molecule/geometry/commands";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import type { HBond } from "@/lib/molecule/hbonds";
import type { PreparedComplex, ResidueKind } from "@/lib/molecule/prepare";
import type { Atom, Bond, ResidueKey } from "@/lib/molecule/types";
import type { RenderSettings } from "@/lib/render/settings";
import { PROJECT_GENERATOR_NAME } from "@/lib/tasks/chance";
import type { ResidueRef } from "@/lib/tasks/fields";
import type { TaskId } from "@/lib/tasks/types";

/**
 * Bump when a generator's output for the same seed and structures changes (values drawn, views,
 * framing, distractors). Stored in every item's provenance so old items are never silently altered.
 * 2: H-bond keys (T4, T9) and T8 questions name amino-acid residues only by default.
 * 3: H-bonds (T4, T8, T9 keys and questions) follow ChimeraX's criteria (../shared/spec/hbond-criteria.md).
 * 4: scene3d carries atom and residue names (hover) and, in T8, the two atoms the question names; images follow
 *    render settings v2 (larger labels, contact-shell residues labelled in ≥ 2 views).
 * 5: T8 distractors are a 2 × 2 product of exchangeable partners (the option nearest zero was the key 35 % of the time).
 * 6: H-bond keys: known components typed from CCD templates, metal-bridged pairs rejected; automatic ligand choice
 *    prefers the drug-like ligand over cofactors and records why (`ligandReason`); duplicate atom records dropped.
 *    T8 and T9 images name every polar atom of the contact shell (render settings v3). Balanced distractors (T5, T6,
 *    and new for T8) build the symmetric option set first and draw the key uniformly among its corners; the paper
 *    recipe is unchanged.
 * 7: images follow render settings v4 (SVG numbers no finer than the pixels need). Automatic ligand choice never
 *    groups residues through a metal atom, treats CO/O2/NO and succinate, citrate and bicine as non-ligands, ranks
 *    candidates without protein contact last, and its reason names every candidate passed over with class and size;
 *    provenance.structure.parseNotes records what the parser changed.
 */
export const GENERATOR_VERSION = "7";
export const GENERATOR_NAME = PROJECT_GENERATOR_NAME;

/** One complex as an item's provenance records it. */
export interface ProvenanceStructure {
  file: string;
  sha256: string;
  ligand: string;
  /** Why this ligand was picked (named, its own file, or the automatic choice's class and what it passed over). */
  ligandReason: string;
  /** ComplexSource.parseNotes, when the parser changed anything. */
  parseNotes?: string[];
  pdbId: string;
  ligandFile?: string;
  ligandSha256?: string;
}

/** Where a complex came from (recorded in provenance). */
export interface ComplexSource {
  /** Classic 4-character PDB id, lower case (the question templates name complexes by it). */
  pdbId: string;
  /** Structure file, as named in the input folder (relative path). */
  file: string;
  /** sha256 (hex) of the structure file's bytes. */
  sha256: string;
  /** Ligand file of a PDBbind-style split, when the ligand came from its own file. */
  ligandFile?: string;
  ligandSha256?: string;
  /** What the parser did to the files ("file: note", e.g. duplicate atom records dropped); absent when nothing. */
  parseNotes?: string[];
}

/** One pocket residue, with its atoms as indices into `GeneratorComplex.pocketAtoms`. */
export interface ComplexResidue {
  key: ResidueKey;
  /** "RES:CHAIN:NUM" */
  id: string;
  kind: ResidueKind;
  atomIndices: number[];
  /** As participants see it labelled; null when the residue has no one-character chain id (it cannot be named in an answer). */
  ref: ResidueRef | null;
}

/** A prepared complex plus everything the generators look up repeatedly (bonds, H-bonds, residues). */
export interface GeneratorComplex extends ComplexSource {
  /** "RES:CHAIN:NUM" of the ligand, or its file name for a ligand file. */
  ligandLabel: string;
  prepared: PreparedComplex;
  ligandAtoms: Atom[];
  pocketAtoms: Atom[];
  /** Bonds among ligandAtoms (file bonds for SDF/MOL2, perceived for PDB). */
  ligandBonds: Bond[];
  /** Bonds among pocketAtoms (residue templates + covalent radii). */
  pocketBonds: Bond[];
  residues: ComplexResidue[];
  /** Pocket–ligand H-bonds to every pocket group (lib/molecule, relaxed ChimeraX criteria), sorted; keys filter with `keyHBondsOf`. */
  hbonds: HBond[];
  /**
   * Why answers cannot name this complex's atoms (T4, T8, T9), or null: ligand atom names that are
   * duplicated or outside the answer grammar, chain ids that differ only in case.
   */
  namingProblem: string | null;
}

/** Camera of a view; the image size comes from the render settings. */
export interface ViewCamera {
  fieldOfViewDeg: number;
  /** Camera on the screen frame's +Z axis at this distance from the view centre. */
  distanceA: number;
  nearA: number;
}

/** What a view shows. */
export type ViewContent = "complex" | "pocket" | "ligand" | "residue-ligand";

/**
 * One image of an item, as data: enough to re-render it from the complex. Coordinates go
 * file → front-view screen frame (minus `viewCentre`) → `ligandCommands` on the ligand only
 * (rotation centre: the ligand centroid) → `modelCommands` on everything shown (rotation centre: the
 * view centre) → the canonical view's rotation about the view centre.
 */
export interface ItemView {
  /** Participant-visible caption; never carries a value of the answer. */
  caption: string;
  /** Index into the item's complexes (T5 uses two). */
  source: number;
  content: ViewContent;
  /** "RES:CHAIN:NUM" of the residue shown, for content "residue-ligand". */
  residueId?: string;
  /**
   * Name every polar atom (N, O, S) of every contact-shell residue (T8, T9: the answer names residue atoms).
   * A rule of the structure alone, so the labelled atoms say nothing about the key.
   */
  residueAtomLabels?: boolean;
  view: CanonicalViewName;
  /** File coordinates of the view centre (the screen-frame origin). */
  viewCentre: Vec3;
  ligandCommands: ViewCommand[];
  modelCommands: ViewCommand[];
  camera: ViewCamera;
}

/** How one MC option was built (admin-only, goes to answers.jsonl). */
export interface DistractorRecord {
  letter: "A" | "B" | "C" | "D";
  /** "truth", or the distractor scheme (T5/T6: "a", "b", "c" of the paper; T8: "sign", "magnitude", "sign+magnitude"). */
  scheme: string;
  option: string;
}

export interface ItemProvenance {
  generator: string;
  generatorVersion: string;
  /** Per-item seed: run seed + task + index. */
  seed: string;
  runSeed: string;
  index: number;
  /** Generator params in force (after defaults). */
  params: Record<string, unknown>;
  /**
   * Generator options beyond the paper's recipe in force for this item (e.g. "balanced-distractors",
   * "hard-negatives"); empty for the paper's recipe. Also visible in `params`; listed here so a reader need not know
   * which param values depart from the paper.
   */
  options: string[];
  renderSettings: RenderSettings;
  renderSettingsVersion: number;
  /** The complex the question is about (T5: the target complex). */
  structure: ProvenanceStructure;
  /** Every complex the item uses, in view `source` order (T5: reference, then target). */
  structures: ProvenanceStructure[];
  /** Generator remarks (e.g. a docking displacement that could not avoid the pocket). */
  notes: string[];
}

/** A generated item. `complexes` is the in-memory data for rendering; it is not serialised. */
export interface GeneratedItem {
  id: string;
  taskId: TaskId;
  taskVersion: number;
  pdbId: string;
  question: string;
  /** Public fields (validated with the task's fieldsSchema). */
  fields: Record<string, unknown>;
  /** Private gold (the task's goldSchema). */
  gold: unknown;
  /** The gold's canonical answer text (task.canonicalizeGold). */
  canonicalAnswer: string;
  distractors?: DistractorRecord[];
  views: ItemView[];
  provenance: ItemProvenance;
  complexes: readonly GeneratorComplex[];
}
