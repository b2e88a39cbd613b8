import { z } from "zod";

/** Shared zod field schemas for question fields (Item.payload). */

/** Classic 4-character PDB id (PDBbind names complexes by it, e.g. 5ey0). */
export const PdbIdSchema = z
  .string()
  .regex(/^[0-9][A-Za-z0-9]{3}$/, "PDB id: 4 characters, starting with a digit (e.g. 5ey0)");

/** A residue as a participant sees it labelled: name, number (with insertion code) and chain. */
export const ResidueRefSchema = z.object({
  residueName: z.string().regex(/^[A-Za-z0-9]{1,3}$/, "residue name: 1–3 letters/digits"),
  residueNumber: z.number().int(),
  insertionCode: z
    .string()
    .regex(/^[A-Za-z]?$/, "insertion code: one letter or empty")
    .default(""),
  chainId: z.string().regex(/^[A-Za-z0-9]$/, "chain id: one letter or digit"),
});
export type ResidueRef = z.infer<typeof ResidueRefSchema>;

/** "ARG 45 (chain A)", "ASP 60B (chain A)". */
export function formatResidueRef(residue: ResidueRef): string {
  return `${residue.residueName.toUpperCase()} ${residue.residueNumber}${residue.insertionCode.toUpperCase()} (chain ${residue.chainId.toUpperCase()})`;
}

/**
 * Names a participant can pick from when listing H-bonds (T4, T9): the residues shown in the item
 * with their heavy-atom names, and the ligand's heavy-atom names, as labelled in the images. Public:
 * it lists every visible atom, bonded or not, so it gives nothing away.
 */
export const HbondPickersSchema = z.object({
  residues: z.array(ResidueRefSchema.extend({ atoms: z.array(z.string().min(1).max(6)).min(1) })),
  ligandAtoms: z.array(z.string().min(1).max(6)).min(1),
});
export type HbondPickers = z.infer<typeof HbondPickersSchema>;
