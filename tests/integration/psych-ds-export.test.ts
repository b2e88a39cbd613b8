import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import Ajv from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPercent } from "@/components/results/format";
import { buildVariableMeasured, PSYCHDS_DATA_FILE_PATTERN, psychDsDataFileName } from "@/lib/export/psych-ds";
import schema from "@/lib/export/psych-ds/schema.json";
import { formatConditionEffect, type ConditionEffectSummary } from "@/lib/results/condition-effect";
import type { GroupSummary } from "@/lib/results/summarize";
import { db, disconnectDb } from "@/lib/server/db";
import { getStudyResults, type StudyResultsDto } from "@/lib/server/dal/results/get-study-results";
import { getIntegrityResults } from "@/lib/server/dal/results/get-integrity";
import { getThreeDUsage } from "@/lib/server/dal/results/get-three-d-usage";
import type { ExclusionResults } from "@/lib/results/exclusions";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { writePsychDsDataset } from "@/lib/server/export/psych-ds-export";
import { createRng } from "@/lib/rng";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

/*
 * The analysis package end to end: export a study with both conditions, run the exported analysis.R and analysis.py
 * (Debian's r-base-core + r-cran-lme4, python3-pandas + python3-statsmodels: .ci/run installs them) and check every
 * printed number against the results page's (the same lib functions), to 1e-9 and as the page prints it.
 */

function findRscript(): string {
  const found = spawnSync("sh", ["-c", "command -v Rscript"], { encoding: "utf8" });
  if (found.status !== 0 || found.stdout.trim() === "") {
    throw new Error(
      "Rscript is not installed: install Debian's r-base-core and r-cran-lme4 (apt-get install r-base-core r-cran-lme4; .ci/run does this)",
    );
  }
  return found.stdout.trim();
}

/** A python3 with pandas and statsmodels: $PYTHON, the one on PATH, then Debian's (where apt installs them). */
function findPython(): string {
  for (const candidate of [process.env.PYTHON, "python3", "/usr/bin/python3"].filter((c): c is string => !!c)) {
    const probe = spawnSync(candidate, ["-c", "import pandas, statsmodels"], { encoding: "utf8" });
    if (probe.status === 0) return candidate;
  }
  throw new Error(
    "no python3 with pandas and statsmodels: install Debian's python3-pandas and python3-statsmodels (.ci/run does this)",
  );
}

type Line = { kind: string; fields: Record<string, string> };

function parseOutput(text: string): Line[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const [kind, ...rest] = l.trim().split(" ");
      const fields: Record<string, string> = {};
      for (const token of rest) {
        const eq = token.indexOf("=");
        fields[token.slice(0, eq)] = decodeURIComponent(token.slice(eq + 1));
      }
      return { kind: kind as string, fields };
    });
}

function num(text: string | undefined): number | null {
  if (text === undefined) throw new Error("missing field");
  return text === "NA" ? null : Number(text);
}

/**
 * Fourteen more participants (20 in all, 10 per condition) so that intervals take the bootstrap path as well as the
 * clustered-Wilson fallback: each answers every item with a copy of another participant's answer to it.
 */
async function addParticipants(fixture: ResultsStudyFixture, count: number): Promise<void> {
  const rng = createRng(`psych-ds|${fixture.tag}`);
  const answers = await db.response.findMany({
    where: { studyId: fixture.studyId, phase: "main" },
    orderBy: [{ participantId: "asc" }, { itemId: "asc" }],
  });
  const byItem = new Map<string, typeof answers>();
  for (const a of answers) byItem.set(a.itemId, [...(byItem.get(a.itemId) ?? []), a]);
  let clock = Date.UTC(2025, 6, 1, 9, 0, 0);
  for (let k = 0; k < count; k++) {
    const condition = k % 2 === 0 ? "static" : "interactive";
    const participant = await db.participant.create({
      data: {
        studyId: fixture.studyId,
        externalId: `extra-${k}-${fixture.tag}`,
        condition,
        cohort: k % 3 === 0 ? "crowd" : "expert",
        status: "completed",
        orderSeed: `x${k}`,
        consentAt: new Date(clock),
      },
      select: { id: true },
    });
    for (const [position, item] of fixture.items.entries()) {
      // Interactive participants copy a right answer more often: the condition has an effect to estimate.
      const pool = byItem.get(item.id)!;
      const right = pool.filter((a) => a.exact === 1);
      // One interactive participant answers every question wrong within 0.2 s: excluded by the policy's speed rule
      // whatever the random fixture does, and its accuracy (0) moves the condition effect when it is left out, so the
      // tests below can tell the estimates with and without the exclusions apart (random data alone sometimes could not).
      const planted = k === 1;
      const wrong = pool.filter((a) => a.exact === 0 && a.canonicalAnswer !== "");
      const source = planted
        ? wrong.length > 0
          ? rng.pick(wrong)
          : rng.pick(pool)
        : condition === "interactive" && right.length > 0 && rng.next() < 0.5
          ? rng.pick(right)
          : rng.pick(pool);
      const rtMs = planted ? 200 : 3_000;
      clock += 5_000;
      const assignment = await db.assignment.create({
        data: {
          participantId: participant.id,
          itemId: item.id,
          position,
          phase: "main",
          status: "answered",
          firstShownAt: new Date(clock - 4_000),
        },
        select: { id: true },
      });
      await db.response.create({
        data: {
          assignmentId: assignment.id,
          participantId: participant.id,
          studyId: fixture.studyId,
          itemId: item.id,
          taskId: source.taskId,
          taskVersion: source.taskVersion,
          phase: "main",
          condition,
          rawAnswer: source.rawAnswer,
          canonicalAnswer: source.canonicalAnswer,
          exact: source.exact,
          partial: source.partial,
          rtClientMs: rtMs,
          rtServerMs: rtMs + 300,
          shownAt: new Date(clock - 4_000),
          submittedAt: new Date(clock),
          idempotencyKey: `extra-${fixture.tag}-${k}-${position}`,
        },
      });
    }
  }
}

/** A camera orientation turned `deg` degrees about the y axis. */
function turnedY(deg: number): [number, number, number, number] {
  const half = (deg * Math.PI) / 360;
  return [0, Math.sin(half), 0, Math.cos(half)];
}

/**
 * Camera logs on 12 interactive answers (the rest of them have none: the 3D view never rendered): answer i turns the
 * view by TURNS[i] degrees in two steps (some below the 15° "turned" threshold; multiples of 4°, so that no quartile
 * falls on a half degree, where the package's 0.1° rounding could round the other way), zooms in to a distance 40 / (1 + 0.25 (i
 * mod 4)), switches the stage to an image for a while on every third answer, toggles the labels on every other one and
 * presses "Reset view" (before its last step) on every fourth.
 */
const TURNS = [0, 4, 8, 32, 44, 92, 120, 180, 200, 272, 360, 12];
async function addCameraLogs(fixture: ResultsStudyFixture): Promise<void> {
  const answers = await db.response.findMany({
    where: { studyId: fixture.studyId, phase: "main", condition: "interactive" },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  for (const [i, turn] of TURNS.entries()) {
    const d = 40 / (1 + 0.25 * (i % 4));
    const events: { t: number; type: string; detail?: string }[] = [{ t: 50, type: "viewer", detail: "start" }];
    if (i % 3 === 0)
      events.push({ t: 900 + 37 * i, type: "stage", detail: "1" }, { t: 2000, type: "stage", detail: "3d" });
    if (i % 2 === 1) events.push({ t: 1200, type: "viewer", detail: "labels-off" });
    if (i % 4 === 2) events.push({ t: 1300, type: "viewer", detail: "reset" });
    const log = {
      camera: [
        { t: 0, q: turnedY(0), d: 40 },
        { t: 400, q: turnedY(turn / 2), d },
        { t: 800, q: turnedY(turn), d },
        { t: 1400, q: turnedY(turn), d: 40 },
      ],
      events,
    };
    await db.response.update({ where: { id: answers[i * 3]!.id }, data: { interactionLog: log } });
  }
}

/** An exclusion policy on the study: server-side rules that exclude some of the participants, and a rule nobody meets. */
async function setExclusionPolicy(fixture: ResultsStudyFixture): Promise<void> {
  const study = await db.study.findUniqueOrThrow({ where: { id: fixture.studyId }, select: { config: true } });
  await db.study.update({
    where: { id: fixture.studyId },
    data: {
      config: {
        ...(study.config as Record<string, unknown>),
        exclusions: { anyPaste: true, fastPercentAtLeast: 40, identicalRunAtLeast: 3 },
      },
    },
  });
}

let fixture: ResultsStudyFixture;
let dir: string;
let page: StudyResultsDto;

beforeAll(async () => {
  fixture = await createResultsStudy("psych-ds");
  await addParticipants(fixture, 14);
  await addCameraLogs(fixture);
  await setExclusionPolicy(fixture);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "psychds-test-"));
  await writePsychDsDataset({ studyId: fixture.studyId, dir: path.join(dir, "pkg") });
  page = await getStudyResults({ studyId: fixture.studyId });
  // PSYCHDS_KEEP=DIR keeps a copy of the package to look at.
  if (process.env.PSYCHDS_KEEP) fs.cpSync(path.join(dir, "pkg"), process.env.PSYCHDS_KEEP, { recursive: true });
}, 120_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await disconnectDb();
});

function groupsOf(summary: NonNullable<StudyResultsDto["summary"]>): [string, GroupSummary][] {
  return [
    ["all", summary.overall],
    ...Object.entries(summary.byCondition).map(([k, g]) => [`condition=${k}`, g] as [string, GroupSummary]),
    ...Object.entries(summary.byCohort).map(([k, g]) => [`cohort=${k}`, g] as [string, GroupSummary]),
  ];
}

function expectClose(got: number | null, want: number | null | undefined, what: string, digits = 1): void {
  if (want === null || want === undefined) {
    expect(got, what).toBeNull();
    return;
  }
  expect(got, what).not.toBeNull();
  expect(Math.abs(got! - want), `${what}: ${got} vs page ${want}`).toBeLessThan(1e-9);
  expect(formatPercent(got, digits), what).toBe(formatPercent(want, digits));
}

/**
 * Every accuracy, interval, spread, F1 and average line of a script equals the page's number (1e-9, and as printed):
 * paper and fair scores, exact and partial, for all participants, each condition and each cohort.
 */
function expectPageNumbers(lines: Line[], script: string, results: StudyResultsDto = page): number {
  const summary = results.summary!;
  let compared = 0;
  const methods = new Set<string>();
  for (const [label, group] of groupsOf(summary)) {
    for (const c of group.columns) {
      const metrics = [
        ["exact", c.exact],
        ["partial", c.partial],
        ["fair-exact", c.fair.exact],
        ["fair-partial", c.fair.partial],
      ] as const;
      for (const [metric, s] of metrics) {
        const where = `${script} ${label} ${c.column} ${metric}`;
        const line = lines.find(
          (l) =>
            l.kind === "accuracy" &&
            l.fields.group === label &&
            l.fields.column === c.column &&
            l.fields.metric === metric,
        );
        expect(line, where).toBeDefined();
        const f = line!.fields;
        expect(Number(f.n)).toBe(c.nResponses);
        expect(Number(f.participants)).toBe(c.nParticipants);
        expect(Number(f.items)).toBe(c.nItems);
        expect(f.method, where).toBe(s.interval.method);
        methods.add(s.interval.method);
        expect(f.reason, where).toBe(s.interval.reason ?? "none");
        const checks: [string, number | null | undefined, number][] = [
          ["value", s.mean, 1],
          ["low", s.interval.low, 1],
          ["high", s.interval.high, 1],
          ["bootstrap_low", s.bootstrap.low, 1],
          ["bootstrap_high", s.bootstrap.high, 1],
          // The page prints the participants' spread as whole percents.
          ["spread_min", s.participantSpread.min, 0],
          ["spread_median", s.participantSpread.median, 0],
          ["spread_max", s.participantSpread.max, 0],
        ];
        if ("wilson" in s) checks.push(["wilson_low", s.wilson.low, 1], ["wilson_high", s.wilson.high, 1]);
        for (const [key, want, digits] of checks) {
          expectClose(num(f[key]), want, `${where} ${key}`, digits);
          compared++;
        }
      }
      const f1 = lines.find((l) => l.kind === "f1" && l.fields.group === label && l.fields.column === c.column);
      expectClose(num(f1?.fields.value), c.fair.f1?.mean ?? null, `${script} ${label} ${c.column} f1`);
      compared++;
    }
    const averages = [
      ["exact", "paper", group.paperAverage.exact],
      ["partial", "paper", group.paperAverage.partial],
      ["exact", "all-task", group.allTaskAverage.exact],
      ["partial", "all-task", group.allTaskAverage.partial],
      ["fair-exact", "paper", group.fairPaperAverage.exact],
      ["fair-partial", "paper", group.fairPaperAverage.partial],
      ["fair-exact", "all-task", group.fairAllTaskAverage.exact],
      ["fair-partial", "all-task", group.fairAllTaskAverage.partial],
    ] as const;
    for (const [metric, kind, want] of averages) {
      const line = lines.find(
        (l) => l.kind === "average" && l.fields.group === label && l.fields.kind === kind && l.fields.metric === metric,
      );
      expect(line, `${script}: average ${label} ${kind} ${metric}`).toBeDefined();
      expectClose(num(line!.fields.value), want, `${script}: average ${label} ${kind} ${metric}`);
      compared++;
    }
  }
  // Nothing printed that the page does not have.
  expect(lines.filter((l) => l.kind === "accuracy")).toHaveLength(
    groupsOf(summary).reduce((n, [, g]) => n + 4 * g.columns.length, 0),
  );
  // The fixture reaches both interval rules: the bootstrap (10+ participants) and the clustered-Wilson fallback.
  // (The policy's fast-answer rule depends on the fixture's timing: when it leaves fewer than 10 participants per
  // column, every interval of the default, excluded, figures takes the fallback.)
  expect(methods.has("clustered-wilson")).toBe(true);
  if (summary.overall.columns.some((c) => c.exact.interval.method === "participant-bootstrap"))
    expect(methods.has("participant-bootstrap")).toBe(true);
  // T4 carries fair scores that differ from the paper's fields (the fair path is exercised, not only its fallback).
  expect(summary.overall.columns.find((c) => c.column === "residue_ligand_pos")!.fair.f1).not.toBeNull();
  return compared;
}

/**
 * Every effect line equals the page's condition effect (lib/results/condition-effect.ts), to 1e-12 and as printed:
 * set=kept the page's default (the exclusion policy applied), set=all the figures with the excluded participants.
 */
function expectConditionEffects(lines: Line[], script: string): number {
  return (
    expectEffectSet(lines, script, "kept", page.summary!.conditionEffect) +
    expectEffectSet(lines, script, "all", page.summary!.unexcluded!.conditionEffect)
  );
}

function expectEffectSet(lines: Line[], script: string, set: "kept" | "all", effects: ConditionEffectSummary): number {
  expect(effects.estimable).toBe(true);
  let compared = 0;
  for (const [label, want] of [
    ["all", effects.overall] as const,
    ...effects.columns.map((c) => [`column=${c.column}`, c.effect] as const),
  ]) {
    const line = lines.find((l) => l.kind === "effect" && l.fields.set === set && l.fields.subset === label);
    expect(line, `${script}: effect ${label}`).toBeDefined();
    const f = line!.fields;
    expect(Number(f.B)).toBe(want.replicates);
    expect(Number(f.seed)).toBe(want.seed);
    expect(Number(f.skipped)).toBe(want.skipped);
    expect(Number(f.participants)).toBe(want.nParticipants);
    expect(Number(f.items)).toBe(want.nItems);
    expect(Number(f.n_static)).toBe(want.byCondition.static.nAnswers);
    expect(Number(f.n_interactive)).toBe(want.byCondition.interactive.nAnswers);
    const got = {
      estimate: num(f.estimate),
      low: num(f.low),
      high: num(f.high),
      bootstrapLow: num(f.bootstrap_low),
      bootstrapHigh: num(f.bootstrap_high),
    };
    for (const key of ["estimate", "low", "high", "bootstrapLow", "bootstrapHigh"] as const) {
      expect(
        Math.abs(got[key]! - want[key]!),
        `${script} effect ${label} ${key}: ${got[key]} vs page ${want[key]}`,
      ).toBeLessThan(1e-12);
      compared++;
    }
    // As the page prints it: "+4.2 pp [−1.0, +9.8]".
    expect(formatConditionEffect({ ...want, ...got })).toBe(formatConditionEffect(want));
  }
  expect(lines.filter((l) => l.kind === "effect" && l.fields.set === set)).toHaveLength(1 + effects.columns.length);
  return compared;
}

/**
 * The integrity section's numbers (getIntegrityResults, what the page shows): participants, excluded, per-rule counts,
 * and exact accuracy overall, paper Avg and per column for all participants and after exclusions (1e-12, as printed).
 */
function expectIntegrity(lines: Line[], script: string, want: ExclusionResults): number {
  let compared = 0;
  const head = lines.find((l) => l.kind === "integrity");
  expect(head, `${script}: integrity line`).toBeDefined();
  expect(head!.fields).toMatchObject({
    participants: String(want.nParticipants),
    excluded: String(want.nExcluded),
    without_browser_signals: String(want.nWithoutBrowserSignals),
    rules: want.rules.length ? want.rules.map((r) => r.rule).join(";") : "none",
  });
  const rules = lines.filter((l) => l.kind === "integrity_rule");
  expect(
    rules.map((l) => [l.fields.rule, Number(l.fields.matched), Number(l.fields.only)]),
    script,
  ).toEqual(want.rules.map((r) => [r.rule, r.nMatched, r.nOnlyThisRule]));
  compared += 3 + 2 * rules.length;
  for (const [set, view] of [
    ["all", want.all],
    ["kept", want.kept],
  ] as const) {
    const line = lines.find((l) => l.kind === "integrity_accuracy" && l.fields.set === set);
    expect(line, `${script}: integrity_accuracy ${set}`).toBeDefined();
    expect(Number(line!.fields.participants)).toBe(view.nParticipants);
    expect(Number(line!.fields.answers)).toBe(view.nResponses);
    expectClose(num(line!.fields.exact), view.exact, `${script} integrity ${set} exact`);
    expectClose(num(line!.fields.paper_average), view.paperAverage, `${script} integrity ${set} paper Avg`);
    const columns = lines.filter((l) => l.kind === "integrity_column" && l.fields.set === set);
    expect(columns.map((l) => l.fields.column)).toEqual(view.columns.map((c) => c.column));
    for (const c of view.columns) {
      const l = columns.find((x) => x.fields.column === c.column)!;
      expect(Number(l.fields.n)).toBe(c.nResponses);
      expectClose(num(l.fields.exact), c.exact, `${script} integrity ${set} ${c.column}`);
    }
    compared += 4 + 2 * view.columns.length;
  }
  return compared;
}

/**
 * The 3D-usage section's per-task numbers (getThreeDUsage, what the page shows). The package rounds rotation to 0.1°
 * and zoom to 0.001 (and times to whole ms), so the quantiles are compared as the page prints them: whole percents,
 * whole degrees, zoom to 2 decimals; counts exactly.
 */
async function expectThreeDUsage(lines: Line[], script: string, studyIds: string[]): Promise<number> {
  const want = await getThreeDUsage(studyIds);
  let compared = 0;
  const meta = lines.find((l) => l.kind === "usage3d_meta");
  expect(meta?.fields, script).toMatchObject({
    interactive_answers: String(want.interactiveAnswers),
    with_viewer: String(want.withViewer),
  });
  const tasks = lines.filter((l) => l.kind === "usage3d");
  expect(tasks.map((l) => l.fields.task)).toEqual(want.tasks.map((t) => t.taskId));
  const pct = (v: number | null) => (v === null ? null : Math.round(v * 100));
  const deg = (v: number | null) => (v === null ? null : Math.round(v));
  const times = (v: number | null) => (v === null ? null : v.toFixed(2));
  for (const t of want.tasks) {
    const f = tasks.find((l) => l.fields.task === t.taskId)!.fields;
    const where = `${script} usage3d ${t.taskId}`;
    expect(
      [
        f.answers,
        f.with_reset,
        f.with_label_toggle,
        f.turned_answers,
        f.turned_correct,
        f.not_turned_answers,
        f.not_turned_correct,
      ].map(Number),
      where,
    ).toEqual([
      t.answers,
      t.withReset,
      t.withLabelToggle,
      t.rotated.answers,
      t.rotated.correct,
      t.notRotated.answers,
      t.notRotated.correct,
    ]);
    const shown: [string, string | number | null, string | number | null][] = [
      ["share3d_median", pct(num(f.share3d_median)), pct(t.share3d.median)],
      ["share3d_q1", pct(num(f.share3d_q1)), pct(t.share3d.q1)],
      ["share3d_q3", pct(num(f.share3d_q3)), pct(t.share3d.q3)],
      ["rotation_median", deg(num(f.rotation_median)), deg(t.rotationDeg.median)],
      ["rotation_q1", deg(num(f.rotation_q1)), deg(t.rotationDeg.q1)],
      ["rotation_q3", deg(num(f.rotation_q3)), deg(t.rotationDeg.q3)],
      ["zoom_in_median", times(num(f.zoom_in_median)), times(t.zoomIn.median)],
      ["zoom_in_q1", times(num(f.zoom_in_q1)), times(t.zoomIn.q1)],
      ["zoom_in_q3", times(num(f.zoom_in_q3)), times(t.zoomIn.q3)],
      ["rotation_median_correct", deg(num(f.rotation_median_correct)), deg(t.medianRotationCorrect)],
      ["rotation_median_wrong", deg(num(f.rotation_median_wrong)), deg(t.medianRotationWrong)],
    ];
    for (const [key, got, expected] of shown) expect(got, `${where} ${key}`).toBe(expected);
    compared += 7 + shown.length;
  }
  return compared;
}

/**
 * The model's warnings: a `separation` note naming exactly the condition × task cells (of the counted answers) where
 * every answer scored the same, and a `large-se` note naming exactly the terms whose SE (R) / posterior SD (Python)
 * is above 10.
 */
function expectModelNotes(lines: Line[], script: string, sdField: "se" | "sd", pkg = path.join(dir, "pkg")): string[] {
  const trials = parse(
    fs.readFileSync(path.join(pkg, "data", psychDsDataFileName(fixture.studyId, "trials")), "utf8"),
    { columns: true },
  ) as Record<string, string>[];
  const cells = new Map<string, number[]>();
  for (const t of trials.filter((r) => r.in_results === "1" && r.excluded === "0")) {
    const key = `${t.condition}:${t.task_id}`;
    cells.set(key, [...(cells.get(key) ?? []), Number(t.exact)]);
  }
  const same = [...cells.entries()]
    .filter(([, xs]) => xs.every((x) => x === xs[0]))
    .map(([key, xs]) => `${key}=${xs[0] === 1 ? "all-correct" : "all-wrong"}`)
    .sort();
  const separation = lines.find(
    (l) => l.kind === "model_note" && l.fields.set === "kept" && l.fields.kind === "separation",
  );
  if (same.length === 0) expect(separation, script).toBeUndefined();
  else expect(separation?.fields.cells?.split(";").sort(), script).toEqual(same);
  const large = lines
    .filter((l) => l.kind === "model_term" && l.fields.set === "kept" && Number(l.fields[sdField]) > 10)
    .map((l) => l.fields.term);
  const note = lines.find((l) => l.kind === "model_note" && l.fields.set === "kept" && l.fields.kind === "large-se");
  if (large.length === 0) expect(note, script).toBeUndefined();
  else expect(note?.fields.terms?.split(";"), script).toEqual(large);
  return same;
}

/**
 * The model is fitted to the answers the page counts (set=kept, the exclusion policy applied, as many as the page's
 * answers) and again with the excluded participants (set=all); the fixture's excluded participants move its estimate.
 */
function expectModelPerSet(lines: Line[], engine: string, term: string): void {
  const meta = lines.find((l) => l.kind === "meta")!.fields;
  expect(Number(meta.answers)).toBe(page.summary!.overall.nResponses);
  expect(Number(meta.excluded_participants)).toBe(page.summary!.unexcluded!.nExcludedParticipants);
  expect(Number(meta.excluded_answers)).toBe(page.summary!.unexcluded!.nExcludedResponses);
  const models = lines.filter((l) => l.kind === "model");
  expect(models.map((l) => [l.fields.set, l.fields.engine, l.fields.status])).toEqual([
    ["kept", engine, "ok"],
    ["all", engine, "ok"],
  ]);
  expect(Number(models[0]!.fields.n)).toBe(page.summary!.overall.nResponses);
  expect(Number(models[1]!.fields.n)).toBe(page.summary!.unexcluded!.overall.nResponses);
  const [kept, all] = (["kept", "all"] as const).map((set) =>
    num(lines.find((l) => l.kind === "model_term" && l.fields.set === set && l.fields.term === term)!.fields.estimate)!,
  );
  expect(Number.isFinite(kept) && Number.isFinite(all)).toBe(true);
  expect(Math.abs(kept! - all!), `${engine} ${term}: kept ${kept} vs all ${all}`).toBeGreaterThan(1e-6);
}

/** Entry name → content of a .tar.gz stream. */
async function readTarGz(stream: Readable): Promise<Map<string, string>> {
  const extract = tar.extract();
  const entries = new Map<string, string>();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.set(entry.header.name, Buffer.concat(chunks).toString("utf8"));
    }
  })();
  await pipeline(stream, createGunzip(), extract);
  await done;
  return entries;
}

describe("analysis package (Psych-DS)", () => {
  it("the results page's download is the same package as one .tar.gz with a top folder", async () => {
    const opened = await openStudyExport({ studyId: fixture.studyId, kind: "psych-ds" });
    expect(opened.fileName).toBe(`${fixture.slug}-psych-ds.tar.gz`);
    expect(opened.contentType).toBe("application/gzip");
    const entries = await readTarGz(opened.stream);
    const root = `${fixture.slug}-psych-ds`;
    const names = [...entries.keys()].sort();
    const trials = `${root}/data/${psychDsDataFileName(fixture.studyId, "trials")}`;
    expect(names).toEqual(
      [
        `${root}/analysis/analysis.R`,
        `${root}/analysis/analysis.py`,
        `${root}/analysis/settings.csv`,
        `${root}/data/${psychDsDataFileName(fixture.studyId, "items")}`,
        `${root}/data/${psychDsDataFileName(fixture.studyId, "participants")}`,
        `${root}/data/${psychDsDataFileName(fixture.studyId, "usage3d")}`,
        trials,
        `${root}/dataset_description.json`,
      ].sort(),
    );
    // Same bytes as the folder export, apart from the description's creation time.
    const folderTrials = fs.readFileSync(
      path.join(dir, "pkg", "data", psychDsDataFileName(fixture.studyId, "trials")),
      "utf8",
    );
    expect(entries.get(trials)).toBe(folderTrials);
    await expect(openStudyExport({ studyId: "nope", kind: "psych-ds" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("is a Psych-DS dataset: the description validates against the shipped schema, every header is described, file names follow the rule", () => {
    const root = path.join(dir, "pkg");
    const description = JSON.parse(fs.readFileSync(path.join(root, "dataset_description.json"), "utf8")) as {
      variableMeasured: { name: string; description: string }[];
    };
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    expect(validate(description), JSON.stringify(validate.errors)).toBe(true);
    // The same schema rejects a description without variableMeasured or of another @type.
    expect(validate({ ...description, variableMeasured: undefined })).toBe(false);
    expect(validate({ ...description, "@type": "Thing" })).toBe(false);
    const names = new Set(description.variableMeasured.map((v) => v.name));
    expect(description.variableMeasured).toEqual(JSON.parse(JSON.stringify(buildVariableMeasured())));
    const dataFiles = fs.readdirSync(path.join(root, "data"));
    expect(dataFiles).toHaveLength(4);
    for (const file of dataFiles) {
      expect(file).toMatch(PSYCHDS_DATA_FILE_PATTERN);
      const [header] = parse(fs.readFileSync(path.join(root, "data", file), "utf8"), { to_line: 1 }) as string[][];
      for (const h of header!) expect(names.has(h), `${file}: column ${h} is not in variableMeasured`).toBe(true);
    }
    for (const v of description.variableMeasured) expect(v.description.length, v.name).toBeGreaterThan(5);
    const trials = parse(
      fs.readFileSync(
        path.join(
          root,
          "data",
          dataFiles.find((f) => f.includes("table-trials"))!,
        ),
        "utf8",
      ),
      { columns: true },
    ) as Record<string, string>[];
    // Main phase only (13 items × 20 participants), every one counted by the page; no recruitment ids in the package.
    expect(trials).toHaveLength(13 * 20);
    expect(trials.every((t) => t.in_results === "1")).toBe(true);
    expect(trials.filter((t) => t.in_results === "1")).toHaveLength(page.nResponses);
    // The policy's verdict per answer: the participants file's excluded_by, and as many answers as the page leaves out.
    const participantRows = parse(
      fs.readFileSync(
        path.join(
          root,
          "data",
          dataFiles.find((f) => f.includes("participants"))!,
        ),
        "utf8",
      ),
      { columns: true },
    ) as Record<string, string>[];
    const excludedIds = new Set(participantRows.filter((p) => p.excluded_by !== "").map((p) => p.participant_id));
    expect(excludedIds.size).toBe(page.summary!.unexcluded!.nExcludedParticipants);
    expect(excludedIds.size).toBeGreaterThan(0);
    for (const t of trials) expect(t.excluded, t.participant_id).toBe(excludedIds.has(t.participant_id!) ? "1" : "0");
    expect(trials.filter((t) => t.excluded === "1")).toHaveLength(page.summary!.unexcluded!.nExcludedResponses);
    // Every estimate of the page leaves them out: accuracy, the condition effect, the paper table (the human row is the overall group).
    expect(page.summary!.overall.nParticipants).toBe(20 - excludedIds.size);
    expect(page.summary!.unexcluded!.overall.nParticipants).toBe(20);
    expect(page.summary!.conditionEffect.overall.estimate).not.toBe(
      page.summary!.unexcluded!.conditionEffect.overall.estimate,
    );
    expect(page.summary!.overall.columns.map((c) => c.exact.mean)).not.toEqual(
      page.summary!.unexcluded!.overall.columns.map((c) => c.exact.mean),
    );
    expect(Object.keys(trials[0]!)).not.toContain("participant_external_id");
    expect(
      fs.readFileSync(
        path.join(
          root,
          "data",
          dataFiles.find((f) => f.includes("participants"))!,
        ),
        "utf8",
      ),
    ).not.toContain("HYPERLINK");
  });

  it("analysis.R reproduces every number of the results page and fits the glmer condition model", async () => {
    const rscript = findRscript();
    const started = performance.now();
    const stdout = execFileSync(rscript, [path.join(dir, "pkg", "analysis", "analysis.R")], {
      encoding: "utf8",
      timeout: 240_000,
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = parseOutput(stdout);
    const compared =
      expectPageNumbers(lines, "analysis.R") +
      expectConditionEffects(lines, "analysis.R") +
      expectIntegrity(lines, "analysis.R", await getIntegrityResults({ studyId: fixture.studyId })) +
      (await expectThreeDUsage(lines, "analysis.R", [fixture.studyId]));
    expectModelNotes(lines, "analysis.R", "se");
    expectModelPerSet(lines, "lme4::glmer", "conditioninteractive");
    // The coding, per-task effects and the overall test: the reference task's effect is conditioninteractive itself,
    // another task's adds its interaction; the likelihood-ratio test drops every condition term (1 + tasks − 1).
    const formula = lines.find((l) => l.kind === "model_formula" && l.fields.set === "kept")!.fields;
    expect(formula).toMatchObject({
      formula: "correct ~ condition * task + (1 | participant) + (1 | item)",
      coding: "treatment",
      condition_reference: "static",
    });
    const keptTerms = new Map(
      lines
        .filter((l) => l.kind === "model_term" && l.fields.set === "kept")
        .map((l) => [l.fields.term!, num(l.fields.estimate)!]),
    );
    const taskEffects = lines.filter((l) => l.kind === "model_task_effect" && l.fields.set === "kept");
    expect(taskEffects.length).toBeGreaterThan(1);
    expect(taskEffects[0]!.fields.task).toBe(formula.task_reference);
    for (const t of taskEffects) {
      const want =
        keptTerms.get("conditioninteractive")! +
        (t.fields.task === formula.task_reference ? 0 : keptTerms.get(`conditioninteractive:task${t.fields.task}`)!);
      expect(Math.abs(num(t.fields.log_odds)! - want), t.fields.task).toBeLessThan(1e-12);
      expect(num(t.fields.se)!).toBeGreaterThan(0);
    }
    const lrt = lines.find((l) => l.kind === "model_test" && l.fields.set === "kept")!.fields;
    expect(lrt).toMatchObject({ test: "lrt-condition", status: "ok", df: String(taskEffects.length) });
    expect(num(lrt.p)!).toBeGreaterThanOrEqual(0);
    expect(num(lrt.p)!).toBeLessThanOrEqual(1);
    console.log(`analysis.R: ${seconds.toFixed(2)} s, ${compared} numbers equal the page's and the contract's`);
  }, 300_000);

  it("analysis.py reproduces every number of the results page and fits the Bayesian mixed GLM", async () => {
    const python = findPython();
    const started = performance.now();
    const stdout = execFileSync(python, [path.join(dir, "pkg", "analysis", "analysis.py")], {
      encoding: "utf8",
      timeout: 240_000,
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = parseOutput(stdout);
    const compared =
      expectPageNumbers(lines, "analysis.py") +
      expectConditionEffects(lines, "analysis.py") +
      expectIntegrity(lines, "analysis.py", await getIntegrityResults({ studyId: fixture.studyId })) +
      (await expectThreeDUsage(lines, "analysis.py", [fixture.studyId]));
    expectModelNotes(lines, "analysis.py", "sd");
    expect(lines.find((l) => l.kind === "model")!.fields).toMatchObject({
      engine: "statsmodels.BinomialBayesMixedGLM",
      method: "fit_vb",
      status: "ok",
    });
    const conditionTerm = lines.find(
      (l) => l.kind === "model_term" && l.fields.term!.includes("[T.interactive]") && !l.fields.term!.includes(":"),
    )!.fields.term!;
    expectModelPerSet(lines, "statsmodels.BinomialBayesMixedGLM", conditionTerm);
    // Approximate, and said so: no p-values or z from variational-Bayes SDs.
    expect(lines.find((l) => l.kind === "model_note" && l.fields.kind === "approximate")!.fields.text).toContain(
      "no p-values",
    );
    expect(
      lines.filter((l) => l.kind === "model_term").every((l) => l.fields.p === undefined && l.fields.z === undefined),
    ).toBe(true);
    console.log(
      `analysis.py (${python}): ${seconds.toFixed(2)} s, ${compared} numbers equal the page's and the contract's`,
    );
  }, 300_000);

  it('timestamps: R\'s as.POSIXct(x, tz = "UTC") and pandas read submitted_at to the millisecond without a format', () => {
    const file = path.join(dir, "pkg", "data", psychDsDataFileName(fixture.studyId, "trials"));
    const first = (parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[])[0]!
      .submitted_at!;
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    const r = execFileSync(
      findRscript(),
      [
        "-e",
        `d <- read.csv("${file}", colClasses = "character"); t <- as.POSIXct(d$submitted_at[1], tz = "UTC"); cat(format(t, "%Y-%m-%d %H:%M:%S"), sprintf("%.3f", as.numeric(t)))`,
      ],
      {
        encoding: "utf8",
      },
    );
    // R keeps the milliseconds in the number (its format() truncates fractional seconds, so compare the epoch seconds).
    expect(r).toBe(`${first.slice(0, 19)} ${(Date.parse(`${first.replace(" ", "T")}Z`) / 1000).toFixed(3)}`);
    const py = execFileSync(
      findPython(),
      [
        "-c",
        `import pandas as pd; d = pd.read_csv("${file}", dtype=str); print(pd.to_datetime(d["submitted_at"].iloc[0]).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3])`,
      ],
      { encoding: "utf8" },
    );
    expect(py.trim()).toBe(first);
  });

  it("model_note names the condition × task cells where every answer scored the same and the terms with huge SEs", () => {
    // The package with every interactive zooming answer made correct and every static one wrong: complete separation.
    const pkg = path.join(dir, "separated");
    fs.cpSync(path.join(dir, "pkg"), pkg, { recursive: true });
    const file = path.join(pkg, "data", psychDsDataFileName(fixture.studyId, "trials"));
    const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
    for (const r of rows) if (r.task_id === "zooming") r.exact = r.condition === "interactive" ? "1" : "0";
    fs.writeFileSync(file, stringify(rows, { header: true, record_delimiter: "unix" }));
    const r = parseOutput(
      execFileSync(findRscript(), [path.join(pkg, "analysis", "analysis.R")], { encoding: "utf8", timeout: 240_000 }),
    );
    expect(expectModelNotes(r, "analysis.R (separated)", "se", pkg)).toEqual([
      "interactive:zooming=all-correct",
      "static:zooming=all-wrong",
    ]);
    expect(r.find((l) => l.kind === "model_note" && l.fields.kind === "large-se")!.fields.terms).toContain(
      "taskzooming",
    );
    const py = parseOutput(
      execFileSync(findPython(), [path.join(pkg, "analysis", "analysis.py")], { encoding: "utf8", timeout: 240_000 }),
    );
    expect(expectModelNotes(py, "analysis.py (separated)", "sd", pkg)).toEqual([
      "interactive:zooming=all-correct",
      "static:zooming=all-wrong",
    ]);
  }, 300_000);

  it("a study with one condition: effects not estimable (NA), model skipped, every other number still the page's", async () => {
    const single = await createResultsStudy("psych-ds-single");
    await db.participant.updateMany({ where: { studyId: single.studyId }, data: { condition: "static" } });
    await db.response.updateMany({ where: { studyId: single.studyId }, data: { condition: "static" } });
    const out = path.join(dir, "single");
    await writePsychDsDataset({ studyId: single.studyId, dir: out });
    const singlePage = await getStudyResults({ studyId: single.studyId });
    expect(singlePage.summary!.conditionEffect.estimable).toBe(false);
    for (const [run, args] of [
      [findRscript(), [path.join(out, "analysis", "analysis.R")]],
      [findPython(), [path.join(out, "analysis", "analysis.py")]],
    ] as const) {
      const lines = parseOutput(execFileSync(run, [...args], { encoding: "utf8", timeout: 240_000 }));
      const effects = lines.filter((l) => l.kind === "effect");
      expect(effects.length).toBe(1 + singlePage.summary!.conditionEffect.columns.length);
      for (const e of effects)
        expect([e.fields.estimate, e.fields.low, e.fields.high, e.fields.n_interactive]).toEqual([
          "NA",
          "NA",
          "NA",
          "0",
        ]);
      expect(lines.find((l) => l.kind === "model")!.fields.status).toBe("skipped");
      const overall = singlePage.summary!.overall.columns[0]!;
      const line = lines.find(
        (l) =>
          l.kind === "accuracy" &&
          l.fields.group === "all" &&
          l.fields.column === overall.column &&
          l.fields.metric === "exact",
      )!;
      expect(Math.abs(num(line.fields.value)! - overall.exact.mean)).toBeLessThan(1e-12);
      expect(Math.abs(num(line.fields.low)! - overall.exact.interval.low)).toBeLessThan(1e-9);
    }
  }, 300_000);

  it("refuses a folder that is not empty and an unknown study, with the reason", async () => {
    const busy = path.join(dir, "busy");
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, "keep.txt"), "mine");
    await expect(writePsychDsDataset({ studyId: fixture.studyId, dir: busy })).rejects.toThrow(/is not empty/);
    expect(fs.readdirSync(busy)).toEqual(["keep.txt"]);
    await expect(writePsychDsDataset({ studyId: "no-such-study", dir: path.join(dir, "none") })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // A file where the folder should be, or where a parent folder should be: the path and the reason, not ENOTDIR.
    const file = path.join(dir, "somefile");
    fs.writeFileSync(file, "mine");
    await expect(writePsychDsDataset({ studyId: fixture.studyId, dir: file })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: `output ${file} is a file, not a folder; give a new or empty folder`,
    });
    await expect(writePsychDsDataset({ studyId: fixture.studyId, dir: path.join(file, "pkg") })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringContaining(`cannot create the output folder ${path.join(file, "pkg")}`),
    });
    expect(fs.readFileSync(file, "utf8")).toBe("mine");
  });

  it("pool scope: the package carries the pool's seed and analysis.py reproduces the pool results page", async () => {
    const out = path.join(dir, "pool");
    await writePsychDsDataset({ studyId: fixture.studyId, scope: "pool", dir: out });
    const settings = parse(fs.readFileSync(path.join(out, "analysis", "settings.csv"), "utf8"), { columns: true }) as {
      setting: string;
      value: string;
    }[];
    expect(settings.find((r) => r.setting === "resultsSeed")!.value).toBe(`results:pool:${fixture.studyId}`);
    expect(settings.find((r) => r.setting === "scope")!.value).toBe("pool");
    // The policy's thresholds, one row per active rule (setExclusionPolicy above).
    expect(settings.filter((r) => r.setting.startsWith("exclusion")).map((r) => [r.setting, r.value])).toEqual([
      ["exclusionRules", "anyPaste | fastPercentAtLeast | identicalRunAtLeast"],
      ["exclusion.anyPaste", "true"],
      ["exclusion.fastPercentAtLeast", "40"],
      ["exclusion.identicalRunAtLeast", "3"],
    ]);
    const poolPage = await getStudyResults({ studyId: fixture.studyId, scope: "pool" });
    const lines = parseOutput(
      execFileSync(findPython(), [path.join(out, "analysis", "analysis.py")], { encoding: "utf8", timeout: 240_000 }),
    );
    expect(expectPageNumbers(lines, "analysis.py (pool)", poolPage)).toBeGreaterThan(500);
    // The pool page's integrity section applies the viewed study's policy to every study of the pool.
    expectIntegrity(
      lines,
      "analysis.py (pool)",
      await getIntegrityResults({ studyId: fixture.studyId, scope: "pool" }),
    );
  }, 300_000);
});
