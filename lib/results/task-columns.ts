import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

/**
 * Task ids and the result columns of the paper's tables (spec §3, §5). T4 (residue_ligand) is
 * reported as two columns, items with bonds (Pos.) and without (Neg.), exactly as the paper does.
 */
export const RESULT_TASK_IDS = TASK_IDS;
export type ResultTaskId = TaskId;

export type T4Polarity = "pos" | "neg";

/** Column keys in the paper's table order. */
export const RESULT_COLUMN_KEYS = [
  "translation",
  "rotation",
  "zooming",
  "residue_ligand_pos",
  "residue_ligand_neg",
  "translation_rotation",
  "rotation_rotation",
  "docking",
  "interaction_location",
  "pocket_ligand",
] as const;
export type ResultColumnKey = (typeof RESULT_COLUMN_KEYS)[number];

export interface ResultColumn {
  key: ResultColumnKey;
  taskId: ResultTaskId;
  t4Polarity?: T4Polarity;
  /** Header as printed in the paper's tables. */
  label: string;
  /** Multiple choice among A–D (exact and partial credit coincide). */
  multipleChoice: boolean;
  /** Counted in the paper's Avg (everything but TransRot and RotRot, spec §4). */
  inPaperAverage: boolean;
}

export const RESULT_COLUMNS: Readonly<Record<ResultColumnKey, ResultColumn>> = {
  translation: {
    key: "translation",
    taskId: "translation",
    label: "Trans",
    multipleChoice: false,
    inPaperAverage: true,
  },
  rotation: { key: "rotation", taskId: "rotation", label: "Rot", multipleChoice: false, inPaperAverage: true },
  zooming: { key: "zooming", taskId: "zooming", label: "Zoom", multipleChoice: false, inPaperAverage: true },
  residue_ligand_pos: {
    key: "residue_ligand_pos",
    taskId: "residue_ligand",
    t4Polarity: "pos",
    label: "ResLig+",
    multipleChoice: false,
    inPaperAverage: true,
  },
  residue_ligand_neg: {
    key: "residue_ligand_neg",
    taskId: "residue_ligand",
    t4Polarity: "neg",
    label: "ResLig−",
    multipleChoice: false,
    inPaperAverage: true,
  },
  translation_rotation: {
    key: "translation_rotation",
    taskId: "translation_rotation",
    label: "TransRot",
    multipleChoice: true,
    inPaperAverage: false,
  },
  rotation_rotation: {
    key: "rotation_rotation",
    taskId: "rotation_rotation",
    label: "RotRot",
    multipleChoice: true,
    inPaperAverage: false,
  },
  docking: { key: "docking", taskId: "docking", label: "Dock", multipleChoice: false, inPaperAverage: true },
  interaction_location: {
    key: "interaction_location",
    taskId: "interaction_location",
    label: "InterLoc",
    multipleChoice: true,
    inPaperAverage: true,
  },
  pocket_ligand: {
    key: "pocket_ligand",
    taskId: "pocket_ligand",
    label: "PocLig",
    multipleChoice: false,
    inPaperAverage: true,
  },
};

/**
 * The paper's Avg columns: 8 of them, T4 counted twice (Pos. and Neg.). Checked against the human
 * partial row: (100 + 70.18 + 30 + 100 + 100 + 74.54 + 92 + 82.78) / 8 = 81.1875, printed 81.18;
 * counting T4 once (7 columns) would give 78.5.
 */
export const PAPER_AVERAGE_COLUMNS: readonly ResultColumnKey[] = RESULT_COLUMN_KEYS.filter(
  (k) => RESULT_COLUMNS[k].inPaperAverage,
);

export const MULTIPLE_CHOICE_TASK_IDS: readonly ResultTaskId[] = [
  "translation_rotation",
  "rotation_rotation",
  "interaction_location",
];

/** The column a response belongs to; T4 needs its polarity, every other task must not have one. */
export function toResultColumnKey(taskId: ResultTaskId, t4Polarity?: T4Polarity): ResultColumnKey | null {
  if (taskId === "residue_ligand") {
    if (t4Polarity === "pos") return "residue_ligand_pos";
    if (t4Polarity === "neg") return "residue_ligand_neg";
    return null;
  }
  return t4Polarity === undefined ? taskId : null;
}

export type { ChanceLevel } from "@/lib/tasks/chance";

/**
 * The paper's average: mean of the 8 Avg columns (T4 Pos./Neg. as two columns, TransRot and RotRot
 * left out). Works on any scale (fractions or percent). Null, with the missing columns named, when
 * any of the 8 is absent: an average over fewer columns is not comparable with the paper's.
 */
export function computePaperAverage(cells: Partial<Record<ResultColumnKey, number | null>>): {
  value: number | null;
  missing: ResultColumnKey[];
} {
  const missing = PAPER_AVERAGE_COLUMNS.filter((k) => cells[k] === undefined || cells[k] === null);
  if (missing.length > 0) return { value: null, missing };
  const sum = PAPER_AVERAGE_COLUMNS.reduce((s, k) => s + (cells[k] as number), 0);
  return { value: sum / PAPER_AVERAGE_COLUMNS.length, missing };
}

/** Mean over all 10 columns (T5 and T6 included, T4 as two columns); null with the missing ones named. */
export function computeAllTaskAverage(cells: Partial<Record<ResultColumnKey, number | null>>): {
  value: number | null;
  missing: ResultColumnKey[];
} {
  const missing = RESULT_COLUMN_KEYS.filter((k) => cells[k] === undefined || cells[k] === null);
  if (missing.length > 0) return { value: null, missing };
  const sum = RESULT_COLUMN_KEYS.reduce((s, k) => s + (cells[k] as number), 0);
  return { value: sum / RESULT_COLUMN_KEYS.length, missing };
}
