// The analysis package's scripts on a simulated study with a known condition effect: run times of analysis.R and
// analysis.py, their agreement with the results page's functions, and whether the effect is recovered.
//   npx tsx bench/analysis-package.mts [--participants 60] [--items 10] [--effect 0.10] [--seed 7] [--keep DIR]
// --items is per result column (10 columns, every participant answers every item); half the participants are
// interactive. P(correct) = base(column) + participant shift + item shift + effect × interactive, so the true
// interactive − static difference is --effect. Needs Rscript with lme4 and a python3 with pandas + statsmodels.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { ANALYSIS_SETTINGS_TABLE, analysisSettingRows, psychDsDataFileName } from "@/lib/export/psych-ds";
import { ExclusionPolicySchema } from "@/lib/participant/integrity";
import { createRng } from "@/lib/rng";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults, type GroupSummary } from "@/lib/results/summarize";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import { CONDITION_EFFECT_DEFAULT_SEED, type ConditionEffect } from "@/lib/stats/crossed-bootstrap";

const { values } = parseArgs({
  options: {
    participants: { type: "string" },
    items: { type: "string" },
    effect: { type: "string" },
    seed: { type: "string" },
    keep: { type: "string" },
  },
});
const nParticipants = Number(values.participants ?? 60);
const itemsPerColumn = Number(values.items ?? 10);
const effect = Number(values.effect ?? 0.1);
const rng = createRng(`analysis-package-bench|${values.seed ?? 7}`);
const replicates = 2000;
const studyId = "benchstudy";
const resultsSeed = `results:study:${studyId}`;

// ---- simulate ----
const shift = (width: number) => (rng.next() * 2 - 1) * width;
const people = Array.from({ length: nParticipants }, (_, i) => ({
  id: `p${String(i).padStart(4, "0")}`,
  condition: i % 2 === 0 ? "static" : "interactive",
  cohort: i % 3 === 0 ? "crowd" : "expert",
  shift: shift(0.1),
}));
const items = RESULT_COLUMN_KEYS.flatMap((column, c) =>
  Array.from({ length: itemsPerColumn }, (_, k) => ({
    id: `i${c}-${k}`,
    column,
    base: 0.45 + 0.04 * c,
    shift: shift(0.15),
  })),
);
const records: ResponseRecord[] = [];
const rows: string[][] = [
  [
    "participant_id",
    "item_id",
    "task_id",
    "result_column",
    "condition",
    "cohort",
    "exact",
    "partial",
    "fair_exact",
    "fair_partial",
    "fair_f1",
    "in_results",
  ],
];
for (const p of people) {
  for (const item of items) {
    const def = RESULT_COLUMNS[item.column];
    const prob = Math.min(
      0.98,
      Math.max(0.02, item.base + p.shift + item.shift + (p.condition === "interactive" ? effect : 0)),
    );
    const exact = rng.next() < prob ? 1 : 0;
    const partial =
      def.multipleChoice || item.column === "zooming" ? exact : exact === 1 ? 1 : rng.next() < 0.3 ? 0.5 : 0;
    const fair = def.taskId === "residue_ligand" || def.taskId === "pocket_ligand";
    const record: ResponseRecord = {
      participantId: p.id,
      itemId: item.id,
      taskId: def.taskId,
      exact: exact as 0 | 1,
      partial,
      condition: p.condition,
      cohort: p.cohort,
    };
    if (def.t4Polarity) record.t4Polarity = def.t4Polarity;
    if (fair) Object.assign(record, { fairExact: exact, fairPartial: partial, fairF1: partial });
    records.push(record);
    rows.push([
      p.id,
      item.id,
      def.taskId,
      item.column,
      p.condition,
      p.cohort,
      String(exact),
      String(partial),
      fair ? String(exact) : "",
      fair ? String(partial) : "",
      fair ? String(partial) : "",
      "1",
    ]);
  }
}

// ---- the package (the columns the scripts read) ----
const dir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "analysis-bench-"));
fs.mkdirSync(path.join(dir, "data"), { recursive: true });
fs.mkdirSync(path.join(dir, "analysis"), { recursive: true });
// Only the trial file is written: the scripts skip the integrity and 3D-usage lines without the other two files.
const files = {
  trials: psychDsDataFileName(studyId, "trials"),
  participants: psychDsDataFileName(studyId, "participants"),
  items: psychDsDataFileName(studyId, "items"),
  usage3d: psychDsDataFileName(studyId, "usage3d"),
};
fs.writeFileSync(path.join(dir, "data", files.trials), stringify(rows, { record_delimiter: "unix" }));
const settings = analysisSettingRows({
  studyId,
  scope: "study",
  resultsSeed,
  resultsReplicates: replicates,
  confidence: 0.95,
  conditionSeed: CONDITION_EFFECT_DEFAULT_SEED,
  conditionReplicates: replicates,
  exclusionPolicy: ExclusionPolicySchema.parse({}),
  files,
});
fs.writeFileSync(
  path.join(dir, "analysis", "settings.csv"),
  stringify([listHeader(ANALYSIS_SETTINGS_TABLE), ...settings.map((s) => toCsvRecord(ANALYSIS_SETTINGS_TABLE, s))], {
    record_delimiter: "unix",
  }),
);
for (const script of ["analysis.R", "analysis.py"])
  fs.copyFileSync(
    path.join(import.meta.dirname, "..", "lib", "export", "psych-ds", script),
    path.join(dir, "analysis", script),
  );

// ---- the page's numbers ----
let started = performance.now();
const summary = summarizeHumanResults(records, { seed: resultsSeed, replicates });
if (!summary.ok) throw new Error(JSON.stringify(summary.issues.slice(0, 3)));
const page = summary.value;
const tsSeconds = (performance.now() - started) / 1000;

function parse(text: string): { kind: string; f: Record<string, string> }[] {
  return text
    .trim()
    .split("\n")
    .map((line) => {
      const [kind, ...rest] = line.split(" ");
      return {
        kind: kind!,
        f: Object.fromEntries(
          rest.map((t) => [t.slice(0, t.indexOf("=")), decodeURIComponent(t.slice(t.indexOf("=") + 1))]),
        ),
      };
    });
}

function compare(lines: ReturnType<typeof parse>): { compared: number; maxDiff: number } {
  let compared = 0;
  let maxDiff = 0;
  const note = (got: string | undefined, want: number | null) => {
    if (want === null || got === undefined) return;
    maxDiff = Math.max(maxDiff, Math.abs(Number(got) - want));
    compared++;
  };
  const groups: [string, GroupSummary][] = [
    ["all", page.overall],
    ...Object.entries(page.byCondition).map(([k, g]) => [`condition=${k}`, g] as [string, GroupSummary]),
    ...Object.entries(page.byCohort).map(([k, g]) => [`cohort=${k}`, g] as [string, GroupSummary]),
  ];
  for (const [label, g] of groups) {
    for (const c of g.columns) {
      for (const [metric, s] of [
        ["exact", c.exact],
        ["partial", c.partial],
        ["fair-exact", c.fair.exact],
        ["fair-partial", c.fair.partial],
      ] as const) {
        const line = lines.find(
          (l) => l.kind === "accuracy" && l.f.group === label && l.f.column === c.column && l.f.metric === metric,
        );
        if (!line) throw new Error(`missing accuracy ${label} ${c.column} ${metric}`);
        note(line.f.value, s.mean);
        note(line.f.low, s.interval.low);
        note(line.f.high, s.interval.high);
      }
    }
  }
  const effects: [string, ConditionEffect][] = [
    ["all", page.conditionEffect.overall],
    ...page.conditionEffect.columns.map((c): [string, ConditionEffect] => [`column=${c.column}`, c.effect]),
  ];
  for (const [label, e] of effects) {
    const line = lines.find((l) => l.kind === "effect" && l.f.subset === label);
    if (!line) throw new Error(`missing effect ${label}`);
    note(line.f.estimate, e.estimate);
    note(line.f.low, e.low);
    note(line.f.high, e.high);
  }
  return { compared, maxDiff };
}

function python(): string {
  for (const candidate of [process.env.PYTHON, "python3", "/usr/bin/python3"].filter((c): c is string => !!c)) {
    if (spawnSync(candidate, ["-c", "import pandas, statsmodels"]).status === 0) return candidate;
  }
  throw new Error("no python3 with pandas and statsmodels (Debian: python3-pandas python3-statsmodels)");
}

console.log(
  `simulated study: ${nParticipants} participants (half interactive) × ${items.length} items = ${records.length} answers; true effect ${effect}`,
);
console.log(`page functions (TypeScript, summarizeHumanResults): ${tsSeconds.toFixed(2)} s`);
const o = page.conditionEffect.overall;
console.log(
  `page condition effect: ${o.estimate!.toFixed(4)} [${o.low!.toFixed(4)}, ${o.high!.toFixed(4)}], true ${effect} ${o.low! <= effect && effect <= o.high! ? "inside" : "OUTSIDE"} the interval`,
);
let agree = 0;
let pythonApproximate = false;
for (const [name, command] of [
  ["analysis.R", "Rscript"],
  ["analysis.py", python()],
] as const) {
  started = performance.now();
  const out = execFileSync(command, [path.join(dir, "analysis", name)], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const lines = parse(out);
  const { compared, maxDiff } = compare(lines);
  agree = Math.max(agree, maxDiff);
  if (lines.some((l) => l.kind === "model_note" && l.f.kind === "approximate")) pythonApproximate = true;
  const term = lines.find(
    (l) =>
      l.kind === "model_term" &&
      (l.f.term === "conditioninteractive" || l.f.term === "C(condition,Treatment('static'))[T.interactive]"),
  );
  const t = lines.find((l) => l.kind === "timing")?.f ?? {};
  console.log(
    `${name}: ${seconds.toFixed(2)} s wall (page numbers ${t.page} s, condition effects ${t.effect} s, model ${t.model} s); ${compared} numbers vs the page, largest difference ${maxDiff.toExponential(2)}; ${lines.find((l) => l.kind === "model")?.f.engine} condition term ${term ? Number(term.f.estimate).toFixed(3) : "–"} (log-odds, reference task)`,
  );
}
if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `analysis: page, R and Python agree to ${agree.toExponential(2)}; python/lme4 SE ratio: not compared (${pythonApproximate ? "analysis.py's variational-Bayes model says it is approximate and prints no p-values; inference from analysis.R's glmer" : "analysis.py printed no approximate note"})`,
);
