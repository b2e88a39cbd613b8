/**
 * Shared view set-up for tasks that show the whole complex (pocket + ligand): view centre on the
 * bounding box of the shown atoms, one camera for every view of the item.
 */
import { type FrameViewOptions, computeViewCentre, frameViewCamera, toFrontFrame } from "../scene";
import type { GeneratorContext, ViewBase } from "../task-generator";
import type { GeneratorComplex } from "../types";

/** Base view of the whole complex: centre on the bounding box of pocket + ligand, camera framing both. */
export function makeComplexBase(
  complex: GeneratorComplex,
  context: GeneratorContext,
  framing: FrameViewOptions = {},
  source = 0,
): ViewBase {
  const atoms = [...complex.ligandAtoms, ...complex.pocketAtoms];
  const viewCentre = computeViewCentre(atoms);
  const camera = frameViewCamera(toFrontFrame(atoms, viewCentre), context.settings, framing);
  return { source, content: "complex", viewCentre, camera };
}
