import type { ThreeDUsage } from "@/lib/results/three-d-usage";
import { ROTATED_THRESHOLD_DEG } from "@/lib/results/three-d-usage";
import { TASK_IDS } from "@/lib/tasks/types";
import { defineExportTable } from "./columns";

/** One interactive-condition main answer whose 3D view rendered, with its usage metrics. */
export interface ThreeDUsageExportRow {
  studyId: string;
  responseId: string;
  participantId: string;
  itemId: string;
  taskId: string;
  exact: 0 | 1;
  usage: ThreeDUsage;
}

export const THREE_D_USAGE_TABLE = defineExportTable<ThreeDUsageExportRow>({
  id: "three_d_usage",
  title: "3D view usage (one row per interactive answer)",
  description:
    "One row per main-phase answer in the interactive condition whose 3D view rendered (camera samples logged), in submission order per study. Derived from the interaction log sent with the answer: camera orientation and distance sampled every 200 ms while it changes, stage and viewer events.",
  columns: [
    {
      key: "response_id",
      type: "string",
      description: "Response id (joins the responses file).",
      get: (r) => r.responseId,
    },
    { key: "study_id", type: "string", description: "Study id.", get: (r) => r.studyId },
    {
      key: "participant_id",
      type: "string",
      description: "Participant id assigned by the app (pseudonymous).",
      get: (r) => r.participantId,
    },
    { key: "item_id", type: "string", description: "Item id in this app.", get: (r) => r.itemId },
    { key: "task_id", type: "string", values: TASK_IDS, description: "MiSI-Bench task.", get: (r) => r.taskId },
    {
      key: "exact",
      type: "integer",
      values: ["0", "1"],
      description: "1 when the answer was correct (as in the responses file).",
      get: (r) => r.exact,
    },
    {
      key: "answer_ms",
      type: "integer",
      unit: "ms",
      description:
        "Time from the question being shown to the answer (rt_browser_ms; the last logged moment when missing).",
      get: (r) => Math.round(r.usage.answerMs),
    },
    {
      key: "view3d_ms",
      type: "integer",
      unit: "ms",
      description: "Time the 3D view was the main view on the stage.",
      get: (r) => Math.round(r.usage.time3dMs),
    },
    {
      key: "images_ms",
      type: "integer",
      unit: "ms",
      description:
        "Time an image was on the stage, as the main view or side by side with it (side by side with the 3D view counts for both).",
      get: (r) => Math.round(r.usage.timeImagesMs),
    },
    {
      key: "rotation_deg",
      type: "number",
      unit: "degrees",
      description: `Total turn of the camera: the sum of the angles between consecutive logged orientations, the jump of a "Reset view" left out. Below ${ROTATED_THRESHOLD_DEG}° the results page counts the answer as not turned.`,
      get: (r) => Math.round(r.usage.rotationDeg * 10) / 10,
    },
    {
      key: "zoom_min",
      type: "number",
      unit: "ratio",
      description: "Smallest camera distance relative to the first (below 1: zoomed in).",
      get: (r) => Math.round(r.usage.zoomMin * 1000) / 1000,
    },
    {
      key: "zoom_max",
      type: "number",
      unit: "ratio",
      description: "Largest camera distance relative to the first (above 1: zoomed out).",
      get: (r) => Math.round(r.usage.zoomMax * 1000) / 1000,
    },
    {
      key: "resets",
      type: "integer",
      description: 'Times the participant pressed "Reset view".',
      get: (r) => r.usage.resets,
    },
    {
      key: "label_toggles",
      type: "integer",
      description: "Times the participant switched the 3D labels off or on.",
      get: (r) => r.usage.labelToggles,
    },
    {
      key: "centres",
      type: "integer",
      description: 'Times the participant pressed "Centre on ligand".',
      get: (r) => r.usage.centres,
    },
  ],
});
