/**
 * T4 residue–ligand interaction: six views of ONE pocket residue + the ligand. Pos. items show a
 * residue with at least one H-bond to the ligand (gold: all of that residue's bonds); Neg. items a
 * residue close to the ligand without any (gold: No). The share of Pos. items is a knob (default 50%,
 * spec §4 reports the two classes separately).
 */
import { z } from "zod";
import type { HbondPickers } from "@/lib/tasks/fields";
import type { ResidueBond } from "@/lib/tasks/grammar/hbond";
import type { HBondPartners } from "@/lib/molecule/hbonds";
import {
  HBondPartnersParamSchema,
  findResidueOfBond,
  isKeyResidue,
  keyHBondsOf,
  listResidueAtomNames,
} from "../complex";
import { buildScene3dField, computeViewCentre, frameViewCamera, toFrontFrame } from "../scene";
import {
  type PlanResult,
  SIX_VIEWS,
  defineGenerator,
  makeCanonicalViews,
  planRoundRobin,
  requireComplex,
} from "../task-generator";
import type { ComplexResidue, GeneratorComplex } from "../types";

export const ResidueLigandGeneratorParamsSchema = z.object({
  /** Fraction of items whose residue has H-bonds (Pos.); the rest are Neg. */
  positiveShare: z.number().min(0).max(1).default(0.5),
  /**
   * A Neg. residue has a heavy atom within this distance of a ligand heavy atom: close enough to
   * look like a candidate (4 Å is a usual contact cut-off), so "No" must be read from the geometry.
   */
  negativeMaxDistanceA: z.number().positive().max(10).default(4),
  /** Which pocket groups can be the target residue and be keyed (default: amino acids only; same rule as T9). */
  hbondPartners: HBondPartnersParamSchema,
  /**
   * "contact" (the paper's recipe as this project reads it): any residue within negativeMaxDistanceA. "hard" (beyond
   * the paper): only residues with a polar (N/O) atom within hardNegativePolarDistanceA of a polar ligand atom, so
   * "No" cannot be read from proximity alone (with "contact", the closest polar pair of a Neg. item was ≥ 4.7 Å).
   */
  negatives: z.enum(["contact", "hard"]).default("contact"),
  hardNegativePolarDistanceA: z.number().positive().max(10).default(4),
});
export type ResidueLigandGeneratorParams = z.infer<typeof ResidueLigandGeneratorParamsSchema>;

/** Residues that can be named in an answer: amino acids (or any pocket group, when asked) with a one-character chain. */
function isCandidate(residue: ComplexResidue, partners: HBondPartners): boolean {
  return residue.ref !== null && isKeyResidue(residue, partners);
}

function bondedResidueIds(complex: GeneratorComplex, partners: HBondPartners): Set<string> {
  const ids = new Set<string>();
  for (const bond of keyHBondsOf(complex, partners)) {
    const residue = findResidueOfBond(complex, bond);
    if (residue) ids.add(residue.id);
  }
  return ids;
}

/** Residues for Pos. items: amino acids with at least one H-bond to the ligand. */
export function listPositiveResidues(
  complex: GeneratorComplex,
  partners: HBondPartners = "amino-acids",
): ComplexResidue[] {
  const bonded = bondedResidueIds(complex, partners);
  return complex.residues.filter((r) => isCandidate(r, partners) && bonded.has(r.id));
}

const POLAR_ELEMENTS: ReadonlySet<string> = new Set(["N", "O"]);
const isPolar = (a: { element: string }) => POLAR_ELEMENTS.has(a.element.toUpperCase());

/**
 * Residues for Neg. items: amino acids within `maxDistanceA` of the ligand and without an H-bond. With
 * `hardPolarDistanceA` (hard negatives), only those with a polar (N/O) atom within that distance of a polar ligand atom.
 */
export function listNegativeResidues(
  complex: GeneratorComplex,
  maxDistanceA: number,
  partners: HBondPartners = "amino-acids",
  hardPolarDistanceA?: number,
): ComplexResidue[] {
  const bonded = bondedResidueIds(complex, partners);
  const within = (i: number, maxA: number, polarOnly: boolean) => {
    const p = complex.pocketAtoms[i]!;
    if (polarOnly && !isPolar(p)) return false;
    return complex.ligandAtoms.some(
      (l) => (!polarOnly || isPolar(l)) && (l.x - p.x) ** 2 + (l.y - p.y) ** 2 + (l.z - p.z) ** 2 <= maxA * maxA,
    );
  };
  return complex.residues.filter((r) => {
    if (!isCandidate(r, partners) || bonded.has(r.id)) return false;
    if (!r.atomIndices.some((i) => within(i, maxDistanceA, false))) return false;
    return hardPolarDistanceA === undefined || r.atomIndices.some((i) => within(i, hardPolarDistanceA, true));
  });
}

/** The Neg. candidates under the params (contact or hard negatives). */
function negativesOf(complex: GeneratorComplex, params: ResidueLigandGeneratorParams): ComplexResidue[] {
  return listNegativeResidues(
    complex,
    params.negativeMaxDistanceA,
    params.hbondPartners,
    params.negatives === "hard" ? params.hardNegativePolarDistanceA : undefined,
  );
}

/** The residue's H-bonds in the T4 grammar (protein side first). */
function goldBondsOf(complex: GeneratorComplex, residue: ComplexResidue, partners: HBondPartners): ResidueBond[] {
  return keyHBondsOf(complex, partners)
    .filter((b) => findResidueOfBond(complex, b) === residue)
    .map((b) => ({
      residueName: residue.key.resName,
      atomName: b.proteinAtom.name,
      ligandAtomName: b.ligandAtom.name,
    }));
}

export const residueLigandGenerator = defineGenerator({
  taskId: "residue_ligand",
  paramsSchema: ResidueLigandGeneratorParamsSchema,
  optionsInForce: (params) => (params.negatives === "hard" ? ["hard-negatives"] : []),
  checkComplex(complex, params) {
    if (complex.namingProblem) return complex.namingProblem;
    if (listPositiveResidues(complex, params.hbondPartners).length === 0 && negativesOf(complex, params).length === 0) {
      const near =
        params.negatives === "hard"
          ? `has a polar atom within ${params.hardNegativePolarDistanceA} Å of a polar ligand atom`
          : `is within ${params.negativeMaxDistanceA} Å of the ligand`;
      return `no amino-acid residue with a one-character chain id is bonded to the ligand or ${near}`;
    }
    return null;
  },
  /**
   * Exactly round(count × positiveShare) Pos. items, in shuffled order; each class spreads its items
   * over distinct (complex, residue) pairs. A class that runs out is filled from the other, with a note.
   */
  plan(eligible, count, rng, params): PlanResult {
    const notes: string[] = [];
    const positives = Math.round(count * params.positiveShare);
    const posPlan = planRoundRobin(
      eligible.map((complex) => ({
        complex,
        options: listPositiveResidues(complex, params.hbondPartners).map((r) => `pos:${r.id}`),
      })),
      count,
      rng,
    );
    const negPlan = planRoundRobin(
      eligible.map((complex) => ({ complex, options: negativesOf(complex, params).map((r) => `neg:${r.id}`) })),
      count,
      rng,
    );
    let pos = posPlan.slice(0, positives);
    let neg = negPlan.slice(0, count - positives);
    if (pos.length < positives) {
      notes.push(`only ${pos.length} bonded residues for ${positives} Pos. items; Neg. items fill the rest`);
      neg = negPlan.slice(0, count - pos.length);
    } else if (neg.length < count - positives) {
      notes.push(
        `only ${neg.length} nearby non-bonded residues${params.negatives === "hard" ? " (hard negatives)" : ""} for ${count - positives} Neg. items; Pos. items fill the rest`,
      );
      pos = posPlan.slice(0, count - neg.length);
    }
    const items = rng.shuffle([...pos, ...neg]);
    if (items.length < count) notes.push(`one item per residue: ${items.length} of the ${count} items asked for`);
    return { items, notes };
  },
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const [variant, residueId] = (item.variant ?? "").split(/:(.*)/s) as [string, string | undefined];
    const candidates =
      variant === "pos" ? listPositiveResidues(complex, params.hbondPartners) : negativesOf(complex, params);
    const residue = residueId ? candidates.find((r) => r.id === residueId) : rng.pick(candidates);
    if (!residue) throw new Error(`planned residue ${item.variant ?? "(none)"} is not a ${variant} candidate`);
    const residueAtoms = residue.atomIndices.map((i) => complex.pocketAtoms[i]!);
    const shown = [...complex.ligandAtoms, ...residueAtoms];
    const viewCentre = computeViewCentre(shown);
    const camera = frameViewCamera(toFrontFrame(shown, viewCentre), context.settings);
    const views = makeCanonicalViews(
      { content: "residue-ligand", residueId: residue.id, viewCentre, camera },
      SIX_VIEWS,
      1,
    );
    const bonds = goldBondsOf(complex, residue, params.hbondPartners);
    const ref = residue.ref!;
    const pickers: HbondPickers = {
      residues: [{ ...ref, atoms: listResidueAtomNames(complex, residue) }],
      ligandAtoms: complex.ligandAtoms.map((a) => a.name),
    };
    return {
      fields: {
        pdbId: complex.pdbId,
        residue: ref,
        pickers,
        scene3d: buildScene3dField(complex, views[0]!, context.settings),
      },
      gold: bonds.length > 0 ? { kind: "bonds", bonds } : { kind: "none" },
      views,
    };
  },
});
