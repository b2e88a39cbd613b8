import { z } from "zod";

/**
 * The interactive 3D scene of an item (Item.payload.scene3d): the atoms of the item's FIRST view only, in the
 * front-view screen frame (Å; X right, Y up, Z toward the viewer; centred on the view centre), so the initial
 * camera equals the static front view. Never contains the after-state of a transformation task.
 */
export const Scene3dSchema = z
  .object({
    /** Element symbols, one per atom. */
    elements: z.array(z.string().max(3)),
    /** Flat xyz triples, Å. */
    positions: z.array(z.number()),
    /** Atom roles: "p" pocket/protein, "l" ligand. */
    roles: z.array(z.enum(["p", "l"])),
    /** Residue index per atom (pocket carbons alternate colours by residue). */
    residueIndex: z.array(z.number().int()),
    /** Flat pairs of atom indices. */
    bonds: z.array(z.number().int().nonnegative()),
    /** Camera distance from the view centre (Å) and field of view (degrees), as in the static render. */
    camera: z.object({ distanceA: z.number().positive(), fovDeg: z.number().positive() }),
    /** The static views' labels: ligand atom names ("a") and residue names ("r"), each anchored on an atom. Optional:
     *  items generated before labels were stored have none. */
    labels: z
      .array(
        z.object({ atom: z.number().int().nonnegative(), text: z.string().min(1).max(40), kind: z.enum(["a", "r"]) }),
      )
      .max(5000)
      .optional(),
    /** Atom name per atom ("OD2", "O1"), shown when the participant hovers or taps an atom. Structure only. */
    atomNames: z.array(z.string().max(6)).optional(),
    /** Name per residue index ("ASP 25 A"), shown with a pocket atom's name on hover. Structure only. */
    residueNames: z.array(z.string().max(20)).optional(),
    /**
     * Atoms the question text names (T8: the protein atom and the ligand atom of the bond), labelled and marked
     * from the first frame. Holds nothing the question does not already say.
     */
    named: z
      .array(z.object({ atom: z.number().int().nonnegative(), text: z.string().min(1).max(40) }))
      .max(8)
      .optional(),
  })
  .refine(
    (s) =>
      s.positions.length === 3 * s.elements.length &&
      s.roles.length === s.elements.length &&
      s.residueIndex.length === s.elements.length &&
      (s.labels ?? []).every((l) => l.atom < s.elements.length) &&
      (s.named ?? []).every((l) => l.atom < s.elements.length) &&
      (s.atomNames === undefined || s.atomNames.length === s.elements.length) &&
      (s.residueNames === undefined ||
        s.residueIndex.every((r, i) => s.roles[i] !== "p" || r < s.residueNames!.length)),
    {
      message:
        "positions, roles, residueIndex, atom names, residue names and label anchors must match the number of atoms",
    },
  );
export type Scene3d = z.infer<typeof Scene3dSchema>;

/** The public payload without the 3D scene (sent to the static condition and to every question screen). */
export function withoutScene(payload: unknown): unknown {
  if (!payload || typeof payload !== "object" || !("scene3d" in payload)) return payload;
  const { scene3d: _omit, ...rest } = payload as Record<string, unknown>;
  return rest;
}
