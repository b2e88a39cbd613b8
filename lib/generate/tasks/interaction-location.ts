/**
 * T8 interaction location (spec §3): six views of pocket + ligand; the question names one H-bond;
 * options are `move x <dx>, move y <dy>` pairs, one of which brings the midpoint of the bond's two
 * atoms to the screen centre (x = y = 0 in the front view's screen frame, where the camera looks).
 *
 * Rounding decision: options are whole Å, and they are exact. The view centre starts at the
 * bounding-box centre of the shown atoms (ChimeraX) and is then shifted by less than 0.5 Å in x and
 * y so that the bond midpoint sits at whole-Å screen coordinates. The true option then brings the
 * midpoint to the image centre exactly (to rounding error), whatever the image size.
 */
import { z } from "zod";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import type { HBond } from "@/lib/molecule/hbonds";
import { formatCommand } from "@/lib/tasks/grammar/command";
import { MC_LETTERS } from "@/lib/tasks/types";
import { findResidueOfBond, keyHBondsOf } from "../complex";
import { buildMoveDistractors, buildSymmetricMoveSet, placeTruth } from "../distractors";
import type { Atom } from "@/lib/molecule/types";
import type { ResidueRef } from "@/lib/tasks/fields";
import { type NamedAtom, buildScene3dField, computeViewCentre, frameViewCamera, toFrontFrame } from "../scene";
import {
  type PlanResult,
  SIX_VIEWS,
  defineGenerator,
  makeCanonicalViews,
  planRoundRobin,
  requireComplex,
} from "../task-generator";
import type { DistractorRecord, GeneratorComplex } from "../types";

export const InteractionLocationGeneratorParamsSchema = z
  .object({
    /** Magnitude perturbations of a distractor, whole Å. */
    minDeltaA: z.number().int().min(1).max(20).default(2),
    maxDeltaA: z.number().int().min(1).max(20).default(6),
    /** Every two options are at least this far apart in the x/y plane. */
    minSeparationA: z.number().min(0).max(20).default(2),
    /**
     * Spread (standard deviation, Å) of the true move's components that the distractors are balanced against
     * (lib/generate/distractors.ts `buildMovePartnerKernel`). 3.5 Å: the bond midpoints' offsets from the view centre on
     * the shared structures (PLIP test set and PoseBusters, 162 bonds; RMS 3.8 Å, raised by a few far bonds) are fitted
     * best by it, and with it the shortest- and longest-option rules sit at chance there (3 Å or 4.5 Å miss by 4-5
     * points). Another structure pool may need its own value: `npm run bench:shortcuts -- --tasks t8` tells.
     */
    truthSpreadA: z.number().min(0.5).max(30).default(3.5),
    /** No option shows a component beyond ±maxOptionA Å. */
    maxOptionA: z.number().int().min(5).max(200).default(40),
    /**
     * "paper": the truth is the bond midpoint's offset from the pocket's centre, its partners balanced against
     * truthSpreadA. "balanced" (beyond the paper): the option set is built first and the key drawn uniformly among its
     * corners (lib/generate/distractors.ts `buildSymmetricMoveSet`); the view is centred so that the key brings the
     * midpoint to the centre. Exactly at chance for any option-only rule on any structure pool.
     */
    distractors: z.enum(["paper", "balanced"]).default("paper"),
  })
  .refine((p) => p.minDeltaA <= p.maxDeltaA, { message: "minDeltaA exceeds maxDeltaA" });
export type InteractionLocationGeneratorParams = z.infer<typeof InteractionLocationGeneratorParamsSchema>;

/** Bonds the question can name: amino-acid partners (as T4/T9 keys), the residue needs a one-character chain id. */
function listNameableBonds(complex: GeneratorComplex): HBond[] {
  const seen = new Set<string>();
  return keyHBondsOf(complex, "amino-acids").filter((b) => {
    if (!findResidueOfBond(complex, b)?.ref) return false;
    const key = `${b.proteinAtom.serial}|${b.ligandAtom.serial}|${b.proteinAtom.name}|${b.ligandAtom.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The complex's own atoms at the two ends of an H-bond. */
function bondAtomsOf(
  bond: Pick<HBond, "proteinAtom" | "ligandAtom">,
  complex: GeneratorComplex,
): { protein: Atom; ligand: Atom } {
  const find = (ref: HBond["proteinAtom"], atoms: GeneratorComplex["pocketAtoms"]) => {
    const atom = atoms.find(
      (a) =>
        a.serial === ref.serial &&
        a.name === ref.name &&
        a.chain === ref.chain &&
        a.resSeq === ref.resSeq &&
        a.iCode === ref.iCode,
    );
    if (!atom) throw new Error(`H-bond atom ${ref.name} (serial ${ref.serial}) is not among the shown atoms`);
    return atom;
  };
  return { protein: find(bond.proteinAtom, complex.pocketAtoms), ligand: find(bond.ligandAtom, complex.ligandAtoms) };
}

/** Midpoint of an H-bond's two atoms, file coordinates. */
export function bondMidpointOf(bond: Pick<HBond, "proteinAtom" | "ligandAtom">, complex: GeneratorComplex): Vec3 {
  const { protein: p, ligand: l } = bondAtomsOf(bond, complex);
  return [(p.x + l.x) / 2, (p.y + l.y) / 2, (p.z + l.z) / 2];
}

/** View centre near `centre` such that `point` has whole-Å x and y in the screen frame (shift < 0.5 Å). */
export function snapViewCentre(centre: Vec3, point: Vec3): Vec3 {
  return [point[0] - Math.round(point[0] - centre[0]), point[1] - Math.round(point[1] - centre[1]), centre[2]];
}

/** The bond's two atoms as the question names them: "ASP 25 A OD2" and the ligand's "O1". */
function namedAtomsOf(bond: HBond, complex: GeneratorComplex, residue: ResidueRef): NamedAtom[] {
  const { protein, ligand } = bondAtomsOf(bond, complex);
  const res = `${residue.residueName.toUpperCase()} ${residue.residueNumber}${residue.insertionCode.toUpperCase()} ${residue.chainId.toUpperCase()}`;
  return [
    { atom: protein, text: `${res} ${bond.proteinAtom.name.toUpperCase()}` },
    { atom: ligand, text: bond.ligandAtom.name.toUpperCase() },
  ];
}

function formatMove(dx: number, dy: number): string {
  return `${formatCommand({ kind: "move", axis: "x", value: dx })}, ${formatCommand({ kind: "move", axis: "y", value: dy })}`;
}

export const interactionLocationGenerator = defineGenerator({
  taskId: "interaction_location",
  paramsSchema: InteractionLocationGeneratorParamsSchema,
  optionsInForce: (params) => (params.distractors === "balanced" ? ["balanced-distractors"] : []),
  checkComplex(complex) {
    if (complex.namingProblem) return complex.namingProblem;
    return listNameableBonds(complex).length > 0
      ? null
      : "no pocket–ligand H-bond on a residue with a one-character chain id";
  },
  /** Distinct (complex, bond) pairs, spread over the complexes. */
  plan(eligible, count, rng): PlanResult {
    const groups = eligible.map((complex) => ({
      complex,
      options: listNameableBonds(complex).map((_, i) => String(i)),
    }));
    const items = planRoundRobin(groups, count, rng);
    const total = groups.reduce((n, g) => n + g.options.length, 0);
    return {
      items,
      notes:
        items.length < count
          ? [`one item per H-bond: ${total} nameable bonds give ${items.length} of the ${count} items asked for`]
          : [],
    };
  },
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const bonds = listNameableBonds(complex);
    const bond = item.variant !== undefined ? bonds[Number(item.variant)] : rng.pick(bonds);
    if (!bond) throw new Error(`planned bond #${item.variant} is not among the ${bonds.length} nameable bonds`);
    const residue = findResidueOfBond(complex, bond)!;
    const shown = [...complex.ligandAtoms, ...complex.pocketAtoms];
    const midpoint = bondMidpointOf(bond, complex);
    const centre = computeViewCentre(shown);
    const balanced = params.distractors === "balanced" ? buildSymmetricMoveSet(rng, params) : null;
    // Balanced: the view centre sits at the midpoint plus the key, so the key brings the midpoint to the centre.
    const viewCentre: Vec3 = balanced
      ? [midpoint[0] + balanced.truth[0], midpoint[1] + balanced.truth[1], centre[2]]
      : snapViewCentre(centre, midpoint);
    const camera = frameViewCamera(toFrontFrame(shown, viewCentre), context.settings);
    const views = makeCanonicalViews({ content: "complex", residueAtomLabels: true, viewCentre, camera }, SIX_VIEWS, 1);

    // Moving the scene by (dx, dy) puts the midpoint at (mx + dx, my + dy): the truth is (-mx, -my).
    const dx = Math.round(viewCentre[0] - midpoint[0]);
    const dy = Math.round(viewCentre[1] - midpoint[1]);
    const truth = [dx === 0 ? 0 : dx, dy === 0 ? 0 : dy] as const;
    const distractors = balanced ? balanced.distractors : buildMoveDistractors(rng, truth, params);
    const options = placeTruth(rng, { scheme: "truth", move: truth }, distractors, item.answerSlot);
    const texts = options.map((o) => formatMove(o.move[0], o.move[1])) as [string, string, string, string];
    const letter = MC_LETTERS[options.findIndex((o) => o.scheme === "truth")]!;
    const records: DistractorRecord[] = options.map((o, i) => ({
      letter: MC_LETTERS[i]!,
      scheme: o.scheme,
      option: texts[i]!,
    }));
    return {
      fields: {
        pdbId: complex.pdbId,
        bond: { residue: residue.ref!, atomName: bond.proteinAtom.name, ligandAtomName: bond.ligandAtom.name },
        options: texts,
        // The question names both atoms, so the 3D view labels them from the first frame.
        scene3d: buildScene3dField(complex, views[0]!, context.settings, namedAtomsOf(bond, complex, residue.ref!)),
      },
      gold: { letter, options: texts },
      views,
      distractors: records,
    };
  },
});
