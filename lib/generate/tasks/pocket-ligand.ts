/**
 * T9 pocket–ligand interaction (spec §3): six views of pocket + ligand; the gold lists every H-bond.
 * Only complexes with at least one bond (the paper's T9 items all have bonds), and only when every
 * bonded residue can be written in the answer grammar (one-character chain id).
 */
import { z } from "zod";
import type { HbondPickers } from "@/lib/tasks/fields";
import type { PocketBond } from "@/lib/tasks/grammar/hbond";
import type { HBondPartners } from "@/lib/molecule/hbonds";
import { HBondPartnersParamSchema, findResidueOfBond, keyHBondsOf, listResidueAtomNames } from "../complex";
import { buildScene3dField } from "../scene";
import { type PlanResult, SIX_VIEWS, defineGenerator, makeCanonicalViews, requireComplex } from "../task-generator";
import type { GeneratorComplex } from "../types";
import { makeComplexBase } from "./whole-complex";

export const PocketLigandGeneratorParamsSchema = z.object({
  /** Which pocket groups the key names (default: amino acids only; same rule as T4). */
  hbondPartners: HBondPartnersParamSchema,
});

function goldBondsOf(complex: GeneratorComplex, partners: HBondPartners): PocketBond[] | string {
  const bonds: PocketBond[] = [];
  for (const b of keyHBondsOf(complex, partners)) {
    const ref = findResidueOfBond(complex, b)?.ref;
    if (!ref)
      return `bonded residue ${b.proteinAtom.resName} ${b.proteinAtom.resSeq}${b.proteinAtom.iCode} has no one-character chain id`;
    bonds.push({ ...ref, atomName: b.proteinAtom.name, ligandAtomName: b.ligandAtom.name });
  }
  return bonds;
}

export const pocketLigandGenerator = defineGenerator({
  taskId: "pocket_ligand",
  paramsSchema: PocketLigandGeneratorParamsSchema,
  checkComplex(complex, params) {
    if (complex.namingProblem) return complex.namingProblem;
    if (keyHBondsOf(complex, params.hbondPartners).length === 0) {
      return params.hbondPartners === "amino-acids"
        ? "no pocket–ligand H-bond to an amino acid (T9 items need at least one)"
        : "no pocket–ligand H-bond (T9 items need at least one)";
    }
    const bonds = goldBondsOf(complex, params.hbondPartners);
    return typeof bonds === "string" ? bonds : null;
  },
  /** A complex has exactly one T9 item (its full bond list), so there are at most as many items as complexes. */
  plan(eligible, count, rng): PlanResult {
    const order = rng.shuffle(eligible);
    const items = order.slice(0, count).map((complex) => ({ complexes: [complex] }));
    const notes =
      items.length < count
        ? [
            `one item per complex: ${eligible.length} eligible complexes give ${items.length} of the ${count} items asked for`,
          ]
        : [];
    return { items, notes };
  },
  generate(item, params, _rng, context) {
    const complex = requireComplex(item);
    const bonds = goldBondsOf(complex, params.hbondPartners);
    if (typeof bonds === "string") throw new Error(bonds);
    const base = makeComplexBase(complex, context);
    // The answer names residue atoms: every contact-shell residue's polar atoms carry their names.
    const views = makeCanonicalViews({ ...base, residueAtomLabels: true }, SIX_VIEWS, 1);
    const named = complex.residues.filter((r) => r.ref !== null);
    const chainIds = [...new Set(named.map((r) => r.ref!.chainId))].sort();
    const pickers: HbondPickers = {
      residues: named.map((r) => ({ ...r.ref!, atoms: listResidueAtomNames(complex, r) })),
      ligandAtoms: complex.ligandAtoms.map((a) => a.name),
    };
    return {
      fields: {
        pdbId: complex.pdbId,
        chainIds,
        pickers,
        scene3d: buildScene3dField(complex, views[0]!, context.settings),
      },
      gold: { kind: "bonds", bonds },
      views,
    };
  },
});
