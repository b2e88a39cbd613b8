/** Every task's generator, keyed by task id. */
import type { TaskId } from "@/lib/tasks/types";
import type { ErasedTaskGenerator } from "./task-generator";
import { rotationRotationGenerator, translationRotationGenerator } from "./tasks/composite-transform";
import { dockingGenerator } from "./tasks/docking";
import { interactionLocationGenerator } from "./tasks/interaction-location";
import { pocketLigandGenerator } from "./tasks/pocket-ligand";
import { residueLigandGenerator } from "./tasks/residue-ligand";
import { rotationGenerator, translationGenerator, zoomingGenerator } from "./tasks/unit-transform";

export const GENERATORS: Readonly<Record<TaskId, ErasedTaskGenerator>> = {
  translation: translationGenerator,
  rotation: rotationGenerator,
  zooming: zoomingGenerator,
  residue_ligand: residueLigandGenerator,
  translation_rotation: translationRotationGenerator,
  rotation_rotation: rotationRotationGenerator,
  docking: dockingGenerator,
  interaction_location: interactionLocationGenerator,
  pocket_ligand: pocketLigandGenerator,
};
