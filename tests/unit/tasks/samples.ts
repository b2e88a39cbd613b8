/**
 * One hand-made valid item per task (fields + gold), plus a correct answer text, for the contract
 * tests that every task must pass. Atom names follow the paper's examples (ATP-like O1B/O2G) and a
 * 5ey0-style pocket; the bonds are plausible, not computed.
 */
import type { TaskId } from "@/lib/tasks/types";

export interface TaskSample {
  fields: unknown;
  gold: unknown;
  /** Text a participant would type for the right answer (not necessarily canonical). */
  correctText: string;
  /** A wrong but valid answer. */
  wrongText: string;
}

export const SAMPLES: Record<TaskId, TaskSample> = {
  translation: {
    fields: { pdbId: "5ey0" },
    gold: { axis: "x", distanceA: 4 },
    correctText: "Move X +4.",
    wrongText: "move y 4",
  },
  rotation: {
    fields: { pdbId: "1n7g" },
    gold: { axis: "y", angleDeg: 15 },
    correctText: "roll  y 15",
    wrongText: "roll y -15",
  },
  zooming: { fields: { pdbId: "4alw" }, gold: { distanceA: 40 }, correctText: "move z 40", wrongText: "move z 41" },
  residue_ligand: {
    fields: { pdbId: "1hii", residue: { residueName: "ARG", residueNumber: 45, insertionCode: "", chainId: "A" } },
    gold: {
      kind: "bonds",
      bonds: [
        { residueName: "ARG", atomName: "NH2", ligandAtomName: "O1B" },
        { residueName: "ARG", atomName: "NE", ligandAtomName: "O2G" },
      ],
    },
    correctText: "Yes: ARG NH2, O1B; ARG NE, O2G",
    wrongText: "No",
  },
  translation_rotation: {
    fields: { referencePdbId: "1acj", targetPdbId: "1bju" },
    gold: {
      letter: "C",
      options: ["move x 6, roll y 60", "move x -3, roll y 45", "move x 3, roll y 30", "move y 3, roll y 75"],
    },
    correctText: "(c)",
    wrongText: "A",
  },
  rotation_rotation: {
    fields: { pdbId: "2reg" },
    gold: {
      letter: "A",
      options: ["roll x 30, roll z -45", "roll x 60, roll z -30", "roll z -45, roll x 30", "roll x 15, roll z -60"],
    },
    correctText: "Option A",
    wrongText: "B",
  },
  docking: {
    fields: { pdbId: "3shy" },
    gold: { rollAxis: "x", rollAngleDeg: 75, moveDistanceA: -14 },
    correctText: "roll x 75, move x -14",
    wrongText: "roll x 75, move x 14",
  },
  interaction_location: {
    fields: {
      pdbId: "5ey0",
      bond: {
        residue: { residueName: "TYR", residueNumber: 228, insertionCode: "", chainId: "A" },
        atomName: "OH",
        ligandAtomName: "O5",
      },
      options: ["move x 3, move y -2", "move x -3, move y -2", "move x 3, move y 2", "move x 6, move y -4"],
    },
    gold: {
      letter: "A",
      options: ["move x 3, move y -2", "move x -3, move y -2", "move x 3, move y 2", "move x 6, move y -4"],
    },
    correctText: "a",
    wrongText: "D",
  },
  pocket_ligand: {
    fields: { pdbId: "5ey0", chainIds: ["A"] },
    gold: {
      kind: "bonds",
      bonds: [
        {
          residueName: "TYR",
          residueNumber: 228,
          insertionCode: "",
          atomName: "OH",
          chainId: "A",
          ligandAtomName: "O5",
        },
        {
          residueName: "ASP",
          residueNumber: 104,
          insertionCode: "",
          atomName: "OD1",
          chainId: "A",
          ligandAtomName: "N2",
        },
        {
          residueName: "GLY",
          residueNumber: 229,
          insertionCode: "",
          atomName: "N",
          chainId: "A",
          ligandAtomName: "O3",
        },
      ],
    },
    correctText: "TYR 228 OH A, O5; ASP 104 OD1 A, N2; GLY 229 N A, O3",
    wrongText: "TYR 228 OH A, O5; ASP 104 OD2 A, N2",
  },
};
