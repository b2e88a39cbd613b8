// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * The gold answers agree with the pictures. These tests fail on a sign or axis error between what a
 * generator draws and what it keys as correct: the gold is read back from its canonical TEXT (as a
 * participant's answer would be) and applied to the initial view's coordinates.
 */
import { describe, expect, it } from "vitest";
import { type GeneratedItem, generateItems, requireViewScene } from "@/lib/generate";
import { displaceLigand, toFrontFrame, toPerspectiveCamera } from "@/lib/generate/scene";
import { focalLengthPx, projectToPixels } from "@/lib/molecule/geometry/camera";
import { type ViewCommand, applyCommands } from "@/lib/molecule/geometry/commands";
import { type Vec3, centroidOf } from "@/lib/molecule/geometry/vec3";
import { renderSvg } from "@/lib/render/svg";
import { parseCommandSequence } from "@/lib/tasks/grammar/command";
import { DOCKING_MOVE_COMMAND, DOCKING_ROLL_COMMAND } from "@/lib/tasks/docking";
import { INTERACTION_LOCATION_OPTION_COMMANDS } from "@/lib/tasks/interaction-location";
import { ROTATION_ROTATION_OPTION_COMMANDS } from "@/lib/tasks/rotation-rotation";
import { TRANSLATION_ROTATION_OPTION_COMMANDS } from "@/lib/tasks/translation-rotation";
import { getTask } from "@/lib/tasks/registry";
import { MC_LETTERS, type TaskId } from "@/lib/tasks/types";
import { parseCircles } from "../render/svg-parse";
import { loadTestComplexes } from "./complexes";

const SIZE_PX = 256;
const complexes = loadTestComplexes();
const generated = generateItems({
  complexes,
  tasks: [
    "translation",
    "rotation",
    "zooming",
    "translation_rotation",
    "rotation_rotation",
    "docking",
    "interaction_location",
  ],
  perTask: 6,
  seed: "geometry",
  renderSettings: { widthPx: SIZE_PX, heightPx: SIZE_PX },
});
if (!generated.ok) throw new Error(generated.error);
const itemsOf = (taskId: TaskId) => generated.items.filter((i) => i.taskId === taskId);
const settingsOf = (item: GeneratedItem) => item.provenance.renderSettings;

/** The gold as commands, parsed from its canonical text with the task's own grammar. */
function goldCommands(item: GeneratedItem): ViewCommand[] {
  const parsed = getTask(item.taskId).parseAnswer(item.canonicalAnswer);
  if (!parsed.ok) throw new Error(parsed.error);
  const text = parsed.canonical;
  const specs =
    item.taskId === "docking"
      ? [DOCKING_ROLL_COMMAND, DOCKING_MOVE_COMMAND]
      : [
          {
            verb: text.startsWith("roll") ? ("roll" as const) : ("move" as const),
            axes: ["x", "y", "z"] as const,
            min: -90,
            max: 90,
            step: 1,
          },
        ];
  const commands = parseCommandSequence(text, specs, "");
  if (!commands.ok) throw new Error(commands.error);
  return commands.value as ViewCommand[];
}

function optionCommands(item: GeneratedItem, letterIndex: number): ViewCommand[] {
  const specs =
    item.taskId === "translation_rotation"
      ? TRANSLATION_ROTATION_OPTION_COMMANDS
      : item.taskId === "rotation_rotation"
        ? ROTATION_ROTATION_OPTION_COMMANDS
        : INTERACTION_LOCATION_OPTION_COMMANDS;
  const text = (item.gold as { options: string[] }).options[letterIndex]!;
  const parsed = parseCommandSequence(text, specs, "");
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value as ViewCommand[];
}

function letterIndexOf(item: GeneratedItem): number {
  return MC_LETTERS.indexOf((item.gold as { letter: (typeof MC_LETTERS)[number] }).letter);
}

function positionsOfView(item: GeneratedItem, viewIndex: number): Vec3[] {
  const view = item.views[viewIndex]!;
  return requireViewScene(item.complexes[view.source]!, view, settingsOf(item)).atoms.map((a) => a.position);
}

function expectSamePoints(actual: readonly Vec3[], expected: readonly Vec3[], tolerance = 1e-9) {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  actual.forEach((p, i) => {
    const q = expected[i]!;
    worst = Math.max(worst, Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1]), Math.abs(p[2] - q[2]));
  });
  expect(worst).toBeLessThan(tolerance);
}

describe.each(["translation", "rotation", "zooming"] as const)(
  "%s: the gold command turns image 1 into image 4",
  (taskId) => {
    it.each(itemsOf(taskId).map((item) => [item.canonicalAnswer, item] as const))("%s", (_answer, item) => {
      const camera = toPerspectiveCamera(item.views[0]!.camera, settingsOf(item));
      expect(item.views[3]!.camera).toEqual(item.views[0]!.camera);
      const before = positionsOfView(item, 0);
      const after = positionsOfView(item, 3);
      const predicted = applyCommands(before, goldCommands(item), [0, 0, 0]);
      expectSamePoints(after, predicted);
      // Projected to pixels, atom by atom (atoms a zoom pushed behind the near plane have no pixel).
      let compared = 0;
      predicted.forEach((p, i) => {
        const a = projectToPixels(camera, p);
        const b = projectToPixels(camera, after[i]!);
        if (a.clipped) return;
        compared++;
        expect(Math.abs(a.xPx - b.xPx)).toBeLessThan(1e-6);
        expect(Math.abs(a.yPx - b.yPx)).toBeLessThan(1e-6);
      });
      expect(compared).toBeGreaterThan(0);
    });

    it("draws image 4's balls where the gold command puts the atoms (through the SVG)", () => {
      const item = itemsOf(taskId)[0]!;
      const camera = toPerspectiveCamera(item.views[3]!.camera, settingsOf(item));
      const svg = renderSvg(requireViewScene(item.complexes[0]!, item.views[3]!, settingsOf(item)), settingsOf(item));
      const circles = parseCircles(svg);
      const expected = applyCommands(positionsOfView(item, 0), goldCommands(item), [0, 0, 0])
        .map((p) => projectToPixels(camera, p))
        .filter((p) => !p.clipped && p.xPx > 2 && p.xPx < SIZE_PX - 2 && p.yPx > 2 && p.yPx < SIZE_PX - 2);
      expect(expected.length).toBeGreaterThan(10);
      for (const p of expected) {
        // SVG coordinates carry two decimals.
        const nearest = Math.min(...circles.map((c) => Math.hypot(c.cx - p.xPx, c.cy - p.yPx)));
        expect(nearest).toBeLessThan(0.01);
      }
    });
  },
);

describe("translation: image 4 moves by the perspective shift of the gold distance", () => {
  it("the view centre lands at W/2 + f·d/D (x) or H/2 − f·d/D (y)", () => {
    for (const item of itemsOf("translation")) {
      const [command] = goldCommands(item);
      const camera = toPerspectiveCamera(item.views[3]!.camera, settingsOf(item));
      // f = 128 px / tan(15°) = 477.7 px at 256 px.
      expect(focalLengthPx(camera)).toBeCloseTo(128 / Math.tan(Math.PI / 12), 9);
      const moved = applyCommands([[0, 0, 0]], [command!], [0, 0, 0])[0]!;
      const p = projectToPixels(camera, moved);
      const shift = (focalLengthPx(camera) * command!.value) / camera.distanceA;
      if (command!.axis === "x") expect(p.xPx).toBeCloseTo(128 + shift, 9);
      else expect(p.yPx).toBeCloseTo(128 - shift, 9);
    }
  });
});

describe("docking: undoing the gold puts the ligand back", () => {
  it.each(itemsOf("docking").map((item) => [item.canonicalAnswer, item] as const))("%s", (_answer, item) => {
    const complex = item.complexes[0]!;
    const view = item.views[6]!;
    const home = toFrontFrame(complex.ligandAtoms, view.viewCentre);
    const displaced = displaceLigand(complex, view.viewCentre, view.ligandCommands);
    // The gold rolls about the displaced ligand's own centre first, then moves along x.
    const restored = applyCommands(displaced, goldCommands(item), centroidOf(displaced));
    const rmsd = Math.sqrt(
      restored.reduce(
        (s, p, i) => s + (p[0] - home[i]![0]) ** 2 + (p[1] - home[i]![1]) ** 2 + (p[2] - home[i]![2]) ** 2,
        0,
      ) / home.length,
    );
    expect(rmsd).toBeLessThan(0.5);
    // The same commands with the move's sign flipped leave it ≥ 20 Å away (|d| ≥ 10 Å): the test can fail.
    const [roll, move] = goldCommands(item) as [ViewCommand, ViewCommand];
    const wrong = applyCommands(displaced, [roll, { ...move, value: -move.value }], centroidOf(displaced));
    expect(Math.abs(centroidOf(wrong)[0] - centroidOf(home)[0])).toBeGreaterThan(19.9);
    // Image 7 shows the same displaced ligand as images 4–6 (only the framing differs).
    expect(item.views[3]!.ligandCommands).toEqual(view.ligandCommands);
  });
});

describe("interaction location: the gold move brings the bond midpoint to the image centre", () => {
  it.each(itemsOf("interaction_location").map((item) => [(item.gold as { letter: string }).letter, item] as const))(
    "option %s",
    (_letter, item) => {
      const complex = item.complexes[0]!;
      const bond = item.fields.bond as {
        residue: { residueNumber: number; chainId: string };
        atomName: string;
        ligandAtomName: string;
      };
      const protein = complex.pocketAtoms.find(
        (a) => a.name === bond.atomName && a.resSeq === bond.residue.residueNumber && a.chain === bond.residue.chainId,
      )!;
      const ligand = complex.ligandAtoms.find((a) => a.name === bond.ligandAtomName)!;
      const midpoint: Vec3 = [(protein.x + ligand.x) / 2, (protein.y + ligand.y) / 2, (protein.z + ligand.z) / 2];
      const front = toFrontFrame(
        [{ ...protein, ...{ x: midpoint[0], y: midpoint[1], z: midpoint[2] } }],
        item.views[0]!.viewCentre,
      );
      const camera = toPerspectiveCamera(item.views[0]!.camera, settingsOf(item));
      const centreOf = (commands: ViewCommand[]) =>
        projectToPixels(camera, applyCommands(front, commands, [0, 0, 0])[0]!);

      const truth = centreOf(optionCommands(item, letterIndexOf(item)));
      expect(Math.abs(truth.xPx - SIZE_PX / 2)).toBeLessThan(1);
      expect(Math.abs(truth.yPx - SIZE_PX / 2)).toBeLessThan(1);
      // Options are whole Å and exact (the view centre is snapped), not just within a pixel.
      expect(Math.hypot(truth.xPx - SIZE_PX / 2, truth.yPx - SIZE_PX / 2)).toBeLessThan(1e-6);
      // Every distractor misses the centre by at least 2 Å's worth of pixels.
      for (let i = 0; i < 4; i++) {
        if (i === letterIndexOf(item)) continue;
        const miss = centreOf(optionCommands(item, i));
        expect(Math.hypot(miss.xPx - SIZE_PX / 2, miss.yPx - SIZE_PX / 2)).toBeGreaterThan(
          (2 * focalLengthPx(camera)) / (camera.distanceA + 60),
        );
      }
    },
  );
});

describe("composite MC items: the option images show the option commands", () => {
  it.each(itemsOf("translation_rotation").map((item) => [item.canonicalAnswer, item] as const))(
    "T5 option %s",
    (_letter, item) => {
      const truthIndex = letterIndexOf(item);
      expect(item.views[3]!.modelCommands).toEqual(optionCommands(item, truthIndex));
      for (let i = 0; i < 4; i++) {
        const view = item.views[7 + i]!;
        expect(view.source).toBe(1);
        expect(view.modelCommands).toEqual(optionCommands(item, i));
        expectSamePoints(
          positionsOfView(item, 7 + i),
          applyCommands(positionsOfView(item, 4), optionCommands(item, i), [0, 0, 0]),
        );
      }
    },
  );

  it.each(itemsOf("rotation_rotation").map((item) => [item.canonicalAnswer, item] as const))(
    "T6 option %s",
    (_letter, item) => {
      const truth = optionCommands(item, letterIndexOf(item));
      expect(item.views[3]!.modelCommands).toEqual(truth);
      for (let i = 0; i < 4; i++) {
        expectSamePoints(
          positionsOfView(item, 4 + i),
          applyCommands(positionsOfView(item, 3), optionCommands(item, i), [0, 0, 0]),
        );
      }
      // The right option is image 1 with the two rotations applied twice.
      expectSamePoints(
        positionsOfView(item, 4 + letterIndexOf(item)),
        applyCommands(positionsOfView(item, 0), [...truth, ...truth], [0, 0, 0]),
      );
    },
  );
});
