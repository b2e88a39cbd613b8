import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { parse } from "csv-parse/sync";
import Ajv from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPercent } from "@/components/results/format";
import { buildVariableMeasured, PSYCHDS_DATA_FILE_PATTERN, psychDsDataFileName } from "@/lib/export/psych-ds";
import schema from "@/lib/export/psych-ds/schema.json";
import { formatConditionEffect } from "@/lib/results/condition-effect";
import type { GroupSummary } from "@/lib/results/summarize";
import { db, disconnectDb } from "@/lib/server/db";
import { getStudyResults, type StudyResultsDto } from "@/lib/server/dal/results/get-study-results";
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
    throw new Error("Rscript is not installed: install Debian's r-base-core and r-cran-lme4 (apt-get install r-base-core r-cran-lme4; .ci/run does this)");
  }
  return found.stdout.trim();
}

/** A python3 with pandas and statsmodels: $PYTHON, the one on PATH, then Debian's (where apt installs them). */
function findPython(): string {
  for (const candidate of [process.env.PYTHON, "python3", "/usr/bin/python3"].filter((c): c is string => !!c)) {
    const probe = spawnSync(candidate, ["-c", "import pandas, statsmodels"], { encoding: "utf8" });
    if (probe.status === 0) return candidate;
  }
  throw new Error("no python3 with pandas and statsmodels: install Debian's python3-pandas and python3-statsmodels (.ci/run does this)");
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
  const answers = await db.response.findMany({ where: { studyId: fixture.studyId, phase: "main" }, orderBy: [{ participantId: "asc" }, { itemId: "asc" }] });
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
      const source = condition === "interactive" && right.length > 0 && rng.next() < 0.5 ? rng.pick(right) : rng.pick(pool);
      clock += 5_000;
      const assignment = await db.assignment.create({
        data: { participantId: participant.id, itemId: item.id, position, phase: "main", status: "answered", firstShownAt: new Date(clock - 4_000) },
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
          rtClientMs: 3_000,
          rtServerMs: 3_300,
          shownAt: new Date(clock - 4_000),
          submittedAt: new Date(clock),
          idempotencyKey: `extra-${fixture.tag}-${k}-${position}`,
        },
      });
    }
  }
}

let fixture: ResultsStudyFixture;
let dir: string;
let page: StudyResultsDto;

beforeAll(async () => {
  fixture = await createResultsStudy("psych-ds");
  await addParticipants(fixture, 14);
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
        const line = lines.find((l) => l.kind === "accuracy" && l.fields.group === label && l.fields.column === c.column && l.fields.metric === metric);
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
      const line = lines.find((l) => l.kind === "average" && l.fields.group === label && l.fields.kind === kind && l.fields.metric === metric);
      expect(line, `${script}: average ${label} ${kind} ${metric}`).toBeDefined();
      expectClose(num(line!.fields.value), want, `${script}: average ${label} ${kind} ${metric}`);
      compared++;
    }
  }
  // Nothing printed that the page does not have.
  expect(lines.filter((l) => l.kind === "accuracy")).toHaveLength(groupsOf(summary).reduce((n, [, g]) => n + 4 * g.columns.length, 0));
  // The fixture reaches both interval rules: the bootstrap (10+ participants) and the clustered-Wilson fallback.
  expect([...methods].sort()).toEqual(["clustered-wilson", "participant-bootstrap"]);
  // T4 carries fair scores that differ from the paper's fields (the fair path is exercised, not only its fallback).
  expect(summary.overall.columns.find((c) => c.column === "residue_ligand_pos")!.fair.f1).not.toBeNull();
  return compared;
}

/** Every effect line equals the page's condition effect (lib/results/condition-effect.ts), to 1e-12 and as printed. */
function expectConditionEffects(lines: Line[], script: string): number {
  const effects = page.summary!.conditionEffect;
  expect(effects.estimable).toBe(true);
  let compared = 0;
  for (const [label, want] of [["all", effects.overall] as const, ...effects.columns.map((c) => [`column=${c.column}`, c.effect] as const)]) {
    const line = lines.find((l) => l.kind === "effect" && l.fields.subset === label);
    expect(line, `${script}: effect ${label}`).toBeDefined();
    const f = line!.fields;
    expect(Number(f.B)).toBe(want.replicates);
    expect(Number(f.seed)).toBe(want.seed);
    expect(Number(f.skipped)).toBe(want.skipped);
    expect(Number(f.participants)).toBe(want.nParticipants);
    expect(Number(f.items)).toBe(want.nItems);
    expect(Number(f.n_static)).toBe(want.byCondition.static.nAnswers);
    expect(Number(f.n_interactive)).toBe(want.byCondition.interactive.nAnswers);
    const got = { estimate: num(f.estimate), low: num(f.low), high: num(f.high) };
    for (const key of ["estimate", "low", "high"] as const) {
      expect(Math.abs(got[key]! - want[key]!), `${script} effect ${label} ${key}: ${got[key]} vs page ${want[key]}`).toBeLessThan(1e-12);
      compared++;
    }
    // As the page prints it: "+4.2 pp [−1.0, +9.8]".
    expect(formatConditionEffect({ ...want, ...got })).toBe(formatConditionEffect(want));
  }
  expect(lines.filter((l) => l.kind === "effect")).toHaveLength(1 + effects.columns.length);
  return compared;
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
        trials,
        `${root}/dataset_description.json`,
      ].sort(),
    );
    // Same bytes as the folder export, apart from the description's creation time.
    const folderTrials = fs.readFileSync(path.join(dir, "pkg", "data", psychDsDataFileName(fixture.studyId, "trials")), "utf8");
    expect(entries.get(trials)).toBe(folderTrials);
    await expect(openStudyExport({ studyId: "nope", kind: "psych-ds" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("is a Psych-DS dataset: the description validates against the shipped schema, every header is described, file names follow the rule", () => {
    const root = path.join(dir, "pkg");
    const description = JSON.parse(fs.readFileSync(path.join(root, "dataset_description.json"), "utf8")) as { variableMeasured: { name: string; description: string }[] };
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    expect(validate(description), JSON.stringify(validate.errors)).toBe(true);
    // The same schema rejects a description without variableMeasured or of another @type.
    expect(validate({ ...description, variableMeasured: undefined })).toBe(false);
    expect(validate({ ...description, "@type": "Thing" })).toBe(false);
    const names = new Set(description.variableMeasured.map((v) => v.name));
    expect(description.variableMeasured).toEqual(JSON.parse(JSON.stringify(buildVariableMeasured())));
    const dataFiles = fs.readdirSync(path.join(root, "data"));
    expect(dataFiles).toHaveLength(3);
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
    const stdout = execFileSync(rscript, [path.join(dir, "pkg", "analysis", "analysis.R")], { encoding: "utf8", timeout: 240_000 });
    const seconds = (performance.now() - started) / 1000;
    const lines = parseOutput(stdout);
    const compared = expectPageNumbers(lines, "analysis.R") + expectConditionEffects(lines, "analysis.R");
    const model = lines.find((l) => l.kind === "model")!;
    expect(model.fields).toMatchObject({ engine: "lme4::glmer", status: "ok" });
    const term = lines.find((l) => l.kind === "model_term" && l.fields.term === "conditioninteractive")!;
    expect(Number.isFinite(num(term.fields.estimate))).toBe(true);
    console.log(`analysis.R: ${seconds.toFixed(2)} s, ${compared} numbers equal the page's and the contract's`);
  }, 300_000);

  it("analysis.py reproduces every number of the results page and fits the Bayesian mixed GLM", async () => {
    const python = findPython();
    const started = performance.now();
    const stdout = execFileSync(python, [path.join(dir, "pkg", "analysis", "analysis.py")], { encoding: "utf8", timeout: 240_000 });
    const seconds = (performance.now() - started) / 1000;
    const lines = parseOutput(stdout);
    const compared = expectPageNumbers(lines, "analysis.py") + expectConditionEffects(lines, "analysis.py");
    expect(lines.find((l) => l.kind === "model")!.fields).toMatchObject({ engine: "statsmodels.BinomialBayesMixedGLM", method: "fit_vb", status: "ok" });
    expect(lines.some((l) => l.kind === "model_term" && l.fields.term!.includes("[T.interactive]") && !l.fields.term!.includes(":"))).toBe(true);
    console.log(`analysis.py (${python}): ${seconds.toFixed(2)} s, ${compared} numbers equal the page's and the contract's`);
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
      for (const e of effects) expect([e.fields.estimate, e.fields.low, e.fields.high, e.fields.n_interactive]).toEqual(["NA", "NA", "NA", "0"]);
      expect(lines.find((l) => l.kind === "model")!.fields.status).toBe("skipped");
      const overall = singlePage.summary!.overall.columns[0]!;
      const line = lines.find((l) => l.kind === "accuracy" && l.fields.group === "all" && l.fields.column === overall.column && l.fields.metric === "exact")!;
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
    await expect(writePsychDsDataset({ studyId: "no-such-study", dir: path.join(dir, "none") })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("pool scope: the package carries the pool's seed and analysis.py reproduces the pool results page", async () => {
    const out = path.join(dir, "pool");
    await writePsychDsDataset({ studyId: fixture.studyId, scope: "pool", dir: out });
    const settings = parse(fs.readFileSync(path.join(out, "analysis", "settings.csv"), "utf8"), { columns: true }) as { setting: string; value: string }[];
    expect(settings.find((r) => r.setting === "resultsSeed")!.value).toBe(`results:pool:${fixture.studyId}`);
    expect(settings.find((r) => r.setting === "scope")!.value).toBe("pool");
    const poolPage = await getStudyResults({ studyId: fixture.studyId, scope: "pool" });
    const lines = parseOutput(execFileSync(findPython(), [path.join(out, "analysis", "analysis.py")], { encoding: "utf8", timeout: 240_000 }));
    expect(expectPageNumbers(lines, "analysis.py (pool)", poolPage)).toBeGreaterThan(500);
  }, 300_000);
});
