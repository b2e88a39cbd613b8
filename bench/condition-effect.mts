// Benchmark and simulation (not a test): the crossed bootstrap of the condition effect (lib/stats/crossed-bootstrap.ts).
//   npm run bench:condition-effect [-- --studies 200 --replicates 1000]
//   npm run bench:condition-effect -- --calibrate --studies 200   (only the calibration below)
// 1. One simulated study with a known effect: truth, estimate and 95% interval, overall and per task; the
//    interval's ends under other seeds (Monte Carlo error of B = 2000).
// 2. Coverage over many simulated studies: how often the crossed interval holds the truth, beside the same
//    bootstrap resampling participants only (all items one unit) and answers only (every answer its own unit).
// 3. Run time at the size of a large study (200,000 answers, 10 columns + overall, 2000 replicates).
// Data model (linear probability, so the truth is exactly the population difference):
//   p = 0.5 + 0.10·[interactive] + u_participant + v_item + w_item·[interactive],
//   u, v ~ U(−0.15, 0.15), w ~ U(−0.10, 0.10) (the 3D view helps some items more than others), p stays in [0.2, 1].
// Calibration (--calibrate): the reported interval (lib/results/condition-effect reportedConditionEffect: Welch t on
// participants) against a planted truth, at the planner's participant count. Crossed participants × items, 8 tasks of
// 20 items, each participant answers 10 random items of each task; p = 0.5 + δ_task·[interactive] + u_participant +
// v_item, u, v ~ U(−0.15, 0.15), δ = +0.20 on T1–T4, 0 on T5–T8. A "before" line runs the crossed bootstrap (the page's
// interval until it was replaced) at the participant count the planner then asked for. The planner (lib/stats/sample-size
// participantsPerConditionForEffect) plans for +20 pp at 50 % static accuracy, m = 10 and ρ = Var(u)/(p̄q̄) (the ICC of
// this model), 80 % power. Coverage counts every task's interval, power the +20 tasks', false positives the null tasks'.
import { parseArgs } from "node:util";
import { createRng } from "../lib/rng.ts";
import { reportedConditionEffect } from "../lib/results/condition-effect.ts";
import {
  conditionEffects,
  crossedBootstrapConditionEffect,
  type CrossedAnswer,
} from "../lib/stats/crossed-bootstrap.ts";
import {
  answersPerGroupForTwoProportions,
  participantsPerConditionForEffect,
  planClustered,
} from "../lib/stats/sample-size.ts";

const TRUTH = 0.1;
const { values: args } = parseArgs({
  options: {
    studies: { type: "string", default: "200" },
    replicates: { type: "string", default: "1000" },
    calibrate: { type: "boolean", default: false },
  },
});
const STUDIES = Number(args.studies);
const REPLICATES = Number(args.replicates);

if (args.calibrate) {
  calibrate();
  process.exit(0);
}

function calibrate(): void {
  const effectByTask: Record<string, number> = { T1: 0.2, T2: 0.2, T3: 0.2, T4: 0.2, T5: 0, T6: 0, T7: 0, T8: 0 };
  const tasks = Object.keys(effectByTask);
  const itemsPerTask = 20;
  const m = 10;
  const halfRange = 0.15;
  const icc = (2 * halfRange) ** 2 / 12 / (0.5 * 0.5);
  const plan = participantsPerConditionForEffect({ p1: 0.5, p2: 0.7, answersPerParticipant: m, icc, power: 0.8 });
  // The planner before this interval: power.prop.test's answers per condition times the participant design effect.
  const before = planClustered({
    effectiveAnswers: answersPerGroupForTwoProportions({ p1: 0.5, p2: 0.7 }),
    answersPerParticipant: m,
    icc,
    answersPerItem: 1,
  }).participants;
  console.log(
    `planner: +20 pp at 50 % static accuracy, m = ${m}, ICC ${icc.toFixed(3)}, 80 % power → ${plan.participants} participants per condition (promised power ${(100 * plan.power).toFixed(1)} %); before: ${before}`,
  );

  function study(s: number, g: number): CrossedAnswer[] {
    const rng = createRng(`calibrate-${s}`);
    const v = tasks.map(() => Array.from({ length: itemsPerTask }, () => (rng.next() - 0.5) * 2 * halfRange));
    const answers: CrossedAnswer[] = [];
    for (const condition of ["static", "interactive"] as const) {
      for (let p = 0; p < g; p++) {
        const u = (rng.next() - 0.5) * 2 * halfRange;
        tasks.forEach((task, t) => {
          const chosen = rng.shuffle(Array.from({ length: itemsPerTask }, (_, i) => i)).slice(0, m);
          for (const i of chosen) {
            const prob = 0.5 + (condition === "interactive" ? effectByTask[task]! : 0) + u + v[t]![i]!;
            answers.push({
              participantId: `${condition}-${p}`,
              itemId: `${task}-item-${i}`,
              task,
              condition,
              correct: rng.next() < prob ? 1 : 0,
            });
          }
        });
      }
    }
    return answers;
  }

  function run(
    g: number,
    promised: number,
    interval: (answers: CrossedAnswer[], seed: number) => { low: number | null; high: number | null },
  ): string {
    const t = { hits: 0, intervals: 0, width: 0, detected: 0, effectTasks: 0, falsePositives: 0, nullTasks: 0 };
    for (let s = 0; s < STUDIES; s++) {
      const answers = study(s, g);
      for (const task of tasks) {
        const { low, high } = interval(
          answers.filter((a) => a.task === task),
          1 + s,
        );
        if (low === null || high === null) continue;
        const truth = effectByTask[task]!;
        t.intervals++;
        t.hits += low <= truth && truth <= high ? 1 : 0;
        t.width += high - low;
        const excludesZero = low > 0 || high < 0;
        if (truth !== 0) {
          t.effectTasks++;
          t.detected += excludesZero ? 1 : 0;
        } else {
          t.nullTasks++;
          t.falsePositives += excludesZero ? 1 : 0;
        }
      }
    }
    return `calibration: studies ${STUDIES}; coverage ${((100 * t.hits) / t.intervals).toFixed(1)} %; power ${((100 * t.detected) / t.effectTasks).toFixed(1)} % (planner ${(100 * promised).toFixed(1)} %); false positives ${((100 * t.falsePositives) / t.nullTasks).toFixed(1)} %; width ${((100 * t.width) / t.intervals).toFixed(1)} pp`;
  }

  const t0 = performance.now();
  const old = run(before, 0.8, (answers, seed) =>
    crossedBootstrapConditionEffect(answers, { seed, replicates: REPLICATES }),
  );
  console.log(`before (crossed bootstrap, B = ${REPLICATES}, ${before} + ${before} participants): ${old}`);
  const now = run(plan.participants, plan.power, (answers, seed) =>
    reportedConditionEffect(answers, { seed, replicates: REPLICATES }),
  );
  console.log(
    `${plan.participants} + ${plan.participants} participants, ${tasks.length} tasks × ${itemsPerTask} items (+20 pp on 4, 0 on 4), ${m} per participant and task; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(now);
}

interface Design {
  perCondition: number;
  items: number;
  itemsPerParticipant: number;
  tasks: number;
}

function simulate(seed: string, d: Design): CrossedAnswer[] {
  const rng = createRng(seed);
  const v = Array.from({ length: d.items }, () => (rng.next() - 0.5) * 0.3);
  const w = Array.from({ length: d.items }, () => (rng.next() - 0.5) * 0.2);
  const out: CrossedAnswer[] = [];
  for (const condition of ["static", "interactive"] as const) {
    for (let p = 0; p < d.perCondition; p++) {
      const u = (rng.next() - 0.5) * 0.3;
      const chosen = rng.shuffle(Array.from({ length: d.items }, (_, i) => i)).slice(0, d.itemsPerParticipant);
      for (const i of chosen) {
        const x = condition === "interactive" ? 1 : 0;
        const prob = 0.5 + TRUTH * x + u + v[i]! + w[i]! * x;
        out.push({
          participantId: `${condition}-${p}`,
          itemId: `item-${i}`,
          task: `T${(i % d.tasks) + 1}`,
          condition,
          correct: rng.next() < prob ? 1 : 0,
        });
      }
    }
  }
  return out;
}

const pp = (x: number | null) => (x === null ? "–" : `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}`);

// 1. One study.
const design: Design = { perCondition: 40, items: 60, itemsPerParticipant: 30, tasks: 3 };
const study = simulate("bench-condition-effect", design);
const t0 = performance.now();
const effects = conditionEffects(study);
const ms = performance.now() - t0;
console.log(
  `Simulated study: ${design.perCondition} static + ${design.perCondition} interactive participants, ${design.items} items over ${design.tasks} tasks, ${design.itemsPerParticipant} items each (${study.length} answers)`,
);
console.log(
  `truth ${pp(TRUTH)} pp; B = ${effects.overall.replicates}, seed ${effects.overall.seed}; ${ms.toFixed(0)} ms for overall + ${design.tasks} tasks`,
);
for (const [name, e] of [["overall", effects.overall] as const, ...Object.entries(effects.byTask)]) {
  const covers = e.low !== null && e.high !== null && e.low <= TRUTH && TRUTH <= e.high;
  console.log(
    `  ${name.padEnd(8)} estimate ${pp(e.estimate)} pp  95% [${pp(e.low)}, ${pp(e.high)}]  n answers static ${e.byCondition.static.nAnswers} / interactive ${e.byCondition.interactive.nAnswers}  ${covers ? "covers the truth" : "MISSES the truth"}`,
  );
}

// Monte Carlo error of the interval's ends: the same study with other seeds.
const ends = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => crossedBootstrapConditionEffect(study, { seed }));
const spread = (xs: number[]) => `${pp(Math.min(...xs))} … ${pp(Math.max(...xs))}`;
console.log(
  `  overall with 8 other seeds: low ${spread(ends.map((e) => e.low!))} pp, high ${spread(ends.map((e) => e.high!))} pp`,
);

// 2. Coverage.
const small: Design = { perCondition: 20, items: 30, itemsPerParticipant: 20, tasks: 1 };
const tally = { crossed: [0, 0], participants: [0, 0], answers: [0, 0] } as Record<string, [number, number]>;
const t1 = performance.now();
for (let s = 0; s < STUDIES; s++) {
  const data = simulate(`coverage-${s}`, small);
  const variants: Record<string, CrossedAnswer[]> = {
    crossed: data,
    participants: data.map((a) => ({ ...a, itemId: "all" })),
    answers: data.map((a, k) => ({ ...a, participantId: `a${k}`, itemId: "all" })),
  };
  for (const [name, answers] of Object.entries(variants)) {
    const e = crossedBootstrapConditionEffect(answers, { seed: 1 + s, replicates: REPLICATES });
    tally[name]![0] += e.low! <= TRUTH && TRUTH <= e.high! ? 1 : 0;
    tally[name]![1] += e.high! - e.low!;
  }
}
console.log(
  `\nCoverage of the true ${pp(TRUTH)} pp over ${STUDIES} simulated studies (${small.perCondition} + ${small.perCondition} participants, ${small.items} items, ${small.itemsPerParticipant} each; B = ${REPLICATES}; ${((performance.now() - t1) / 1000).toFixed(1)} s):`,
);
for (const [name, [hits, width]] of Object.entries(tally)) {
  console.log(
    `  resampling ${name.padEnd(12)} coverage ${((100 * hits) / STUDIES).toFixed(1)} %  mean width ${(100 * (width / STUDIES)).toFixed(1)} pp`,
  );
}

// 3. Run time at a large study's size.
const large = simulate("large", { perCondition: 500, items: 500, itemsPerParticipant: 200, tasks: 10 });
const t2 = performance.now();
const largeEffects = conditionEffects(large);
console.log(
  `\nLarge study: ${large.length} answers, 1000 participants, 500 items, overall + 10 tasks, B = ${largeEffects.overall.replicates}: ${((performance.now() - t2) / 1000).toFixed(2)} s` +
    ` (overall ${pp(largeEffects.overall.estimate)} pp [${pp(largeEffects.overall.low)}, ${pp(largeEffects.overall.high)}])`,
);
