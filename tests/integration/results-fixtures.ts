import { randomBytes } from "node:crypto";
import { db } from "@/lib/server/db";
import { createRng } from "@/lib/rng";
import { StudyConfigSchema } from "@/lib/study-config";
import { getTask } from "@/lib/tasks/registry";

/** A 1×1 SVG; the VLMEvalKit export turns it into a PNG. */
const TINY_SVG = Buffer.from(
  "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4' fill='#BF99F2'/></svg>",
);

const T8_OPTIONS = [
  "move x 3, move y -2",
  "move x -3, move y 2",
  "move x 3, move y 2",
  "move x -3, move y -2",
] as const;

interface ItemSpec {
  taskId: string;
  gold: unknown;
  payload: unknown;
  /** Answers a simulated participant picks from (some right, some wrong). */
  choices: string[];
  images: number;
}

function itemSpecs(): ItemSpec[] {
  const translation = (axis: "x" | "y", d: number): ItemSpec => ({
    taskId: "translation",
    gold: { axis, distanceA: d },
    payload: { pdbId: "1abc" },
    choices: [
      `move ${axis} ${d}`,
      `move ${axis} ${d}`,
      `move ${axis} ${d > -4 ? d - 1 : d + 1}`,
      `move ${axis === "x" ? "y" : "x"} ${d}`,
      `move ${axis} -${Math.abs(d)}`,
    ],
    images: 4,
  });
  const residue = (bonds: boolean): ItemSpec => ({
    taskId: "residue_ligand",
    gold: bonds
      ? { kind: "bonds", bonds: [{ residueName: "ARG", atomName: "NH2", ligandAtomName: "O1B" }] }
      : { kind: "none" },
    payload: { pdbId: "1abc", residue: { residueName: "ARG", residueNumber: 45, insertionCode: "", chainId: "A" } },
    choices: bonds
      ? ["Yes: ARG NH2, O1B", "Yes: ARG NH2, O1B; ARG NE, O2G", "No", "Yes: ARG NE, O2G"]
      : ["No", "No", "Yes: ARG NH2, O1B"],
    images: 6,
  });
  const mc = (letter: "A" | "B" | "C" | "D"): ItemSpec => ({
    taskId: "interaction_location",
    gold: { letter, options: [...T8_OPTIONS] },
    payload: {
      pdbId: "1abc",
      bond: {
        residue: { residueName: "TYR", residueNumber: 228, insertionCode: "", chainId: "A" },
        atomName: "OH",
        ligandAtomName: "O5",
      },
      options: [...T8_OPTIONS],
    },
    choices: [letter, letter, "A", "B", "C", "D"],
    images: 6,
  });
  const zoom = (d: number): ItemSpec => ({
    taskId: "zooming",
    gold: { distanceA: d },
    payload: { pdbId: "1abc" },
    choices: [`move z ${d}`, `move z ${d + 2}`, `move z ${d - 5}`],
    images: 4,
  });
  return [
    translation("x", 3),
    translation("y", -2),
    translation("x", -4),
    translation("y", 1),
    residue(true),
    residue(true),
    residue(false),
    residue(false),
    mc("B"),
    mc("D"),
    mc("A"),
    zoom(45),
    zoom(52),
  ];
}

export interface ResultsStudyFixture {
  tag: string;
  studyId: string;
  slug: string;
  poolVersionId: string;
  items: { id: string; externalId: string; taskId: string; gold: unknown }[];
  participantIds: string[];
}

/**
 * A study with 13 items over 4 tasks (T1, T3, T4 Pos./Neg., T8), 6 simulated participants in two
 * conditions and three cohorts (one without a tag) who answer every item once, scored by the task
 * registry like real answers; plus practice answers (excluded from results) and one timed-out answer.
 * One participant's external id is a spreadsheet formula, as a hostile recruitment URL could set it.
 */
export async function createResultsStudy(seed: string): Promise<ResultsStudyFixture> {
  const tag = randomBytes(4).toString("hex");
  const rng = createRng(`${seed}|${tag}`);
  const specs = itemSpecs();
  const items: ResultsStudyFixture["items"] = [];
  for (const [n, spec] of specs.entries()) {
    const task = getTask(spec.taskId);
    const externalId = `ext-${tag}-${n}`;
    const created = await db.item.create({
      data: {
        source: "bundle",
        externalId,
        taskId: spec.taskId,
        taskVersion: task.version,
        question: `Question ${n} of ${tag}`,
        payload: spec.payload as object,
        contentHash: `results-${tag}-${n}`,
        answerKey: { create: { gold: spec.gold as object, canonical: task.canonicalizeGold(spec.gold as never) } },
        images: {
          create: Array.from({ length: spec.images }, (_, position) => ({
            position,
            caption: `Image ${position + 1}`,
            mimeType: "image/svg+xml",
            sha256: `sha-${position}`,
            data: TINY_SVG,
          })),
        },
      },
      select: { id: true },
    });
    items.push({ id: created.id, externalId, taskId: spec.taskId, gold: spec.gold });
  }
  const pool = await db.pool.create({
    data: {
      name: `results pool ${tag}`,
      versions: {
        create: {
          version: 1,
          recipe: {},
          frozenAt: new Date(),
          items: { create: items.map((it) => ({ itemId: it.id, taskId: it.taskId })) },
        },
      },
    },
    select: { versions: { select: { id: true } } },
  });
  const poolVersionId = pool.versions[0]!.id;
  const config = StudyConfigSchema.parse({
    tasks: ["translation", "zooming", "residue_ligand", "interaction_location"],
    conditions: ["static", "interactive"],
    answersPerItem: 6,
    cohortTag: "expert",
  });
  const study = await db.study.create({
    data: {
      slug: `results-${tag}`,
      name: `Results ${tag}`,
      status: "open",
      poolVersionId,
      config,
      cohortTag: "expert",
    },
    select: { id: true, slug: true },
  });

  const people = [
    { externalId: `=HYPERLINK("http://evil.example/${tag}","x")`, condition: "static", cohort: "expert" },
    { externalId: `p1-${tag}`, condition: "static", cohort: "expert" },
    { externalId: `p2-${tag}`, condition: "static", cohort: "crowd" },
    { externalId: `p3-${tag}`, condition: "interactive", cohort: "crowd" },
    { externalId: `p4-${tag}`, condition: "interactive", cohort: "expert" },
    { externalId: `-p5-${tag}`, condition: "interactive", cohort: null },
  ];
  // Practice items are separate items outside the pool (their answers are stored but never counted).
  const practiceItems = [];
  for (const n of [0, 1]) {
    const gold = { axis: "x" as const, distanceA: n + 1 };
    practiceItems.push(
      await db.item.create({
        data: {
          source: "bundle",
          externalId: `practice-${tag}-${n}`,
          taskId: "translation",
          taskVersion: 1,
          question: `Practice ${n}`,
          payload: { pdbId: "1abc" },
          contentHash: `results-${tag}-practice-${n}`,
          answerKey: { create: { gold, canonical: `move x ${n + 1}` } },
        },
        select: { id: true },
      }),
    );
  }

  const participantIds: string[] = [];
  let clock = Date.UTC(2025, 5, 1, 9, 0, 0);
  for (const [pi, person] of people.entries()) {
    const participant = await db.participant.create({
      data: {
        studyId: study.id,
        externalId: person.externalId,
        condition: person.condition,
        cohort: person.cohort,
        status: "completed",
        consentAt: new Date(clock),
        orderSeed: `${tag}-${pi}`,
        deviceInfo: { screen: "1920x1080", userAgent: pi === 0 ? "@evil" : "Mozilla/5.0" },
      },
      select: { id: true },
    });
    participantIds.push(participant.id);
    const sequence: { itemId: string; taskId: string; gold: unknown; choices: string[]; phase: "practice" | "main" }[] =
      [
        ...practiceItems.map((it, n) => ({
          itemId: it.id,
          taskId: "translation",
          gold: { axis: "x", distanceA: n + 1 },
          choices: [`move x ${n + 1}`, "move x 4"],
          phase: "practice" as const,
        })),
        ...items.map((it, n) => ({
          itemId: it.id,
          taskId: it.taskId,
          gold: it.gold,
          choices: specs[n]!.choices,
          phase: "main" as const,
        })),
      ];
    for (const [position, entry] of sequence.entries()) {
      const task = getTask(entry.taskId);
      const timedOut = entry.phase === "main" && pi === 5 && position === 5;
      const raw = timedOut ? "" : entry.choices[Math.floor(rng.next() * entry.choices.length)]!;
      const graded = timedOut ? null : task.gradeText(raw, entry.gold);
      if (graded && !graded.ok)
        throw new Error(`fixture answer '${raw}' for ${entry.taskId} does not grade: ${graded.error}`);
      const rtClientMs = 2_000 + Math.floor(rng.next() * 20_000);
      const shownAt = new Date(clock + 200);
      clock += rtClientMs + 500;
      const assignment = await db.assignment.create({
        data: {
          participantId: participant.id,
          itemId: entry.itemId,
          position,
          phase: entry.phase,
          status: "answered",
          firstShownAt: shownAt,
        },
        select: { id: true },
      });
      await db.response.create({
        data: {
          assignmentId: assignment.id,
          participantId: participant.id,
          studyId: study.id,
          itemId: entry.itemId,
          taskId: entry.taskId,
          taskVersion: task.version,
          phase: entry.phase,
          condition: person.condition,
          rawAnswer: raw,
          canonicalAnswer: graded && graded.ok ? graded.canonical : "",
          exact: graded && graded.ok ? graded.score.exact : 0,
          partial: graded && graded.ok ? graded.score.partial : 0,
          // One participant's browser reports no client time now and then: rt_ms falls back to the server's.
          rtClientMs: pi === 4 && position % 5 === 0 ? null : rtClientMs,
          rtServerMs: rtClientMs + 300,
          shownAt,
          submittedAt: new Date(clock),
          idempotencyKey: `${tag}-${pi}-${position}`,
        },
      });
    }
  }
  return { tag, studyId: study.id, slug: study.slug, poolVersionId, items, participantIds };
}
