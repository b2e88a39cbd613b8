import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getCameraReplay, getThreeDUsage } from "@/lib/server/dal/results/get-three-d-usage";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

const S = Math.SQRT1_2;
const SCENE = {
  elements: ["C", "O", "N"],
  positions: [0, 0, 0, 1.2, 0, 0, -3, 1, 0],
  roles: ["l", "l", "p"],
  residueIndex: [0, 0, 1],
  bonds: [0, 1],
  camera: { distanceA: 40, fovDeg: 30 },
};

let fixture: ResultsStudyFixture;
let interactive: { id: string; taskId: string; exact: number }[];

beforeAll(async () => {
  fixture = await createResultsStudy("three-d-usage");
  interactive = await db.response.findMany({
    where: { studyId: fixture.studyId, phase: "main", condition: "interactive", taskId: "translation" },
    select: { id: true, taskId: true, exact: true },
    orderBy: { id: "asc" },
  });
  expect(interactive.length).toBeGreaterThanOrEqual(3);
  // Answer 0 turns the view 180° (two 90° turns) and resets once; answer 1 turns 90° and zooms in to half the
  // distance; answer 2 never leaves the front view. The rest of the study's answers have no camera path.
  const logs = [
    {
      camera: [
        { t: 0, q: [0, 0, 0, 1], d: 40 },
        { t: 400, q: [0, S, 0, S], d: 40 },
        { t: 800, q: [0, 1, 0, 0], d: 40 },
        { t: 1600, q: [0, 0, 0, 1], d: 40 },
      ],
      events: [
        { t: 100, type: "viewer", detail: "start" },
        { t: 1500, type: "viewer", detail: "reset" },
        { t: 2000, type: "stage", detail: "1" },
      ],
    },
    {
      camera: [
        { t: 0, q: [0, 0, 0, 1], d: 40 },
        { t: 500, q: [S, 0, 0, S], d: 20 },
      ],
      events: [{ t: 0, type: "viewer", detail: "start" }],
    },
    { camera: [{ t: 0, q: [0, 0, 0, 1], d: 40 }], events: [] },
  ];
  for (const [i, log] of logs.entries()) {
    await db.response.update({ where: { id: interactive[i]!.id }, data: { interactionLog: log, rtClientMs: 4000 } });
  }
  const item = await db.response.findUniqueOrThrow({ where: { id: interactive[0]!.id }, select: { itemId: true } });
  await db.item.update({ where: { id: item.itemId }, data: { payload: { pdbId: "1abc", scene3d: SCENE } } });
});

afterAll(async () => {
  await disconnectDb();
});

describe("3D view usage on the results page", () => {
  it("summarises the logged camera paths of interactive answers per task", async () => {
    const usage = await getThreeDUsage([fixture.studyId]);
    const all = await db.response.count({
      where: { studyId: fixture.studyId, phase: "main", condition: "interactive" },
    });
    expect(usage.interactiveAnswers).toBe(all);
    expect(usage.withViewer).toBe(3);
    expect(usage.tasks.map((t) => t.taskId)).toEqual(["translation"]);
    const t1 = usage.tasks[0]!;
    // Turns 180°, 90°, 0°: median 90, quartiles 45 and 135 (type 7).
    expect(t1.rotationDeg.median).toBeCloseTo(90, 6);
    expect(t1.rotationDeg.q1).toBeCloseTo(45, 6);
    expect(t1.rotationDeg.q3).toBeCloseTo(135, 6);
    // Zoom in: 1, 2, 1.
    expect(t1.zoomIn.q3).toBeCloseTo(1.5, 9);
    expect(t1.withReset).toBe(1);
    // Answer 0 left the 3D view at 2.0 s of 4.0 s, the others stayed: shares 0.5, 1, 1.
    expect(t1.share3d.median).toBe(1);
    expect(t1.share3d.q1).toBe(0.75);
    const correctOfTurned = interactive.slice(0, 2).filter((r) => r.exact === 1).length;
    expect(t1.rotated).toEqual({ answers: 2, correct: correctOfTurned });
    expect(t1.notRotated).toEqual({ answers: 1, correct: interactive[2]!.exact === 1 ? 1 : 0 });
    expect(usage.examples).toEqual([
      {
        studyId: fixture.studyId,
        responseId: interactive[1]!.id,
        taskId: "translation",
        rotationDeg: expect.closeTo(90, 6),
        correct: interactive[1]!.exact === 1,
      },
    ]);
  });

  it("gives a researcher replay the item's scene and the camera path, only within the study", async () => {
    const replay = await getCameraReplay(fixture.studyId, interactive[0]!.id);
    expect(replay?.scene.elements).toEqual(["C", "O", "N"]);
    expect(replay?.camera).toHaveLength(4);
    expect(replay?.usage?.rotationDeg).toBeCloseTo(180, 6);
    // No scene stored for that item: nothing to replay; another study's id: not found.
    expect(await getCameraReplay(fixture.studyId, interactive[1]!.id)).toBeNull();
    const other = await createResultsStudy("three-d-usage-other");
    expect(await getCameraReplay(other.studyId, interactive[0]!.id)).toBeNull();
  });
});

describe("3D view usage export", () => {
  it("has one row per answer whose 3D view rendered, with the codebook's columns", async () => {
    const { openStudyExport } = await import("@/lib/server/export/open-study-export");
    const { parse } = await import("csv-parse/sync");
    const { THREE_D_USAGE_TABLE } = await import("@/lib/export/three-d-usage-table");
    const opened = await openStudyExport({ studyId: fixture.studyId, kind: "three-d-usage" });
    expect(opened.fileName).toBe(`${fixture.slug}-three-d-usage.csv`);
    const chunks: Buffer[] = [];
    for await (const c of opened.stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
    const rows = parse(Buffer.concat(chunks).toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(THREE_D_USAGE_TABLE.columns.map((c) => c.key));
    expect(rows).toHaveLength(3);
    const first = rows.find((r) => r.response_id === interactive[0]!.id)!;
    expect(first).toMatchObject({
      rotation_deg: "180",
      resets: "1",
      answer_ms: "4000",
      view3d_ms: "2000",
      images_ms: "2000",
      zoom_min: "1",
      zoom_max: "1",
    });
    expect(rows.find((r) => r.response_id === interactive[1]!.id)).toMatchObject({
      rotation_deg: "90",
      zoom_min: "0.5",
    });
  });
});

describe("3D view usage from the export CLI", () => {
  it("npm run export -- --what three-d-usage writes the same file as the download", async () => {
    const { spawnSync } = await import("node:child_process");
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { databaseUrl } = await import("@/lib/server/env");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-usage-cli-"));
    const out = path.join(dir, "usage.csv");
    try {
      const run = spawnSync(
        "node_modules/.bin/tsx",
        [
          "--conditions=react-server",
          "scripts/export.mts",
          "--study",
          fixture.studyId,
          "--what",
          "three-d-usage",
          "--out",
          out,
        ],
        {
          env: { ...process.env, DATABASE_URL: databaseUrl },
          encoding: "utf8",
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const { openStudyExport } = await import("@/lib/server/export/open-study-export");
      const chunks: Buffer[] = [];
      for await (const c of (await openStudyExport({ studyId: fixture.studyId, kind: "three-d-usage" })).stream)
        chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
      expect(fs.readFileSync(out, "utf8")).toBe(Buffer.concat(chunks).toString("utf8"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
