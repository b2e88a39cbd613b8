/**
 * T1 translation, T2 rotation, T3 zooming (spec §3): front, left and top views of the whole complex,
 * then the front view after one command applied to the whole complex. The gold is that command.
 * Value ranges come from the task modules' params (axes, min/max, allowZero), listed by lib/tasks/chance.ts (the
 * same list gives the chance level).
 */
import type { ViewCommand } from "@/lib/molecule/geometry/commands";
import { listKeyValues } from "@/lib/tasks/chance";
import { RotationParamsSchema } from "@/lib/tasks/rotation";
import { TranslationParamsSchema } from "@/lib/tasks/translation";
import { ZoomingParamsSchema } from "@/lib/tasks/zooming";
import { buildScene3dField } from "../scene";
import {
  type GeneratorContext,
  type ItemDraft,
  type ViewBase,
  THREE_VIEWS,
  defineGenerator,
  makeCanonicalViews,
  makeView,
  pickValue,
  requireComplex,
} from "../task-generator";
import type { GeneratorComplex } from "../types";
import { makeComplexBase } from "./whole-complex";

/** Images 1–3 (front, left, top), image 4 (front after the command); scene3d = image 1. */
function buildUnitDraft(
  complex: GeneratorComplex,
  base: ViewBase,
  command: ViewCommand,
  gold: unknown,
  context: GeneratorContext,
): ItemDraft {
  const views = [
    ...makeCanonicalViews(base, THREE_VIEWS, 1),
    makeView({ ...base, modelCommands: [command] }, "front", "Image 4: front view after the transformation"),
  ];
  const scene3d = buildScene3dField(complex, views[0]!, context.settings);
  return { fields: { pdbId: complex.pdbId, scene3d }, gold, views };
}

/**
 * T1: `move x|y d`. The camera frames the complex plus the largest |d|, so the moved complex stays
 * inside image 4 (a framing that hugged the complex would crop it and hint at the direction).
 */
export const translationGenerator = defineGenerator({
  taskId: "translation",
  paramsSchema: TranslationParamsSchema,
  checkComplex: () => null,
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const axis = rng.pick(params.axes);
    const distanceA = pickValue(
      rng,
      listKeyValues("translation", { kind: "generated", params }) ?? [],
      "translation distance",
    );
    const extraRadiusA = Math.max(Math.abs(params.minDistanceA), Math.abs(params.maxDistanceA));
    const base = makeComplexBase(complex, context, { extraRadiusA });
    return buildUnitDraft(complex, base, { kind: "move", axis, value: distanceA }, { axis, distanceA }, context);
  },
});

/** T2: `roll x|y|z a` about the view centre; a sphere framing is unchanged by the rotation. */
export const rotationGenerator = defineGenerator({
  taskId: "rotation",
  paramsSchema: RotationParamsSchema,
  checkComplex: () => null,
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const axis = rng.pick(params.axes);
    const angleDeg = pickValue(rng, listKeyValues("rotation", { kind: "generated", params }) ?? [], "rotation angle");
    const base = makeComplexBase(complex, context);
    return buildUnitDraft(complex, base, { kind: "roll", axis, value: angleDeg }, { axis, angleDeg }, context);
  },
});

/**
 * Room in front of the camera after the largest zoom: the camera sits at least this far beyond
 * `move z <max>`, so the view centre never passes the lens (atoms nearer than the near plane are
 * culled, which at 60 Å is the paper's "zooms into a single atom").
 */
export const ZOOM_CAMERA_CLEARANCE_A = 20;

/** T3: `move z d`, d in [40, 60]. */
export const zoomingGenerator = defineGenerator({
  taskId: "zooming",
  paramsSchema: ZoomingParamsSchema,
  checkComplex: () => null,
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const distanceA = pickValue(rng, listKeyValues("zooming", { kind: "generated", params }) ?? [], "zoom distance");
    const base = makeComplexBase(complex, context, { minDistanceA: params.maxDistanceA + ZOOM_CAMERA_CLEARANCE_A });
    return buildUnitDraft(complex, base, { kind: "move", axis: "z", value: distanceA }, { distanceA }, context);
  },
});
