// Benchmark and simulation (not a test): the crossed bootstrap of the condition effect (lib/stats/crossed-bootstrap.ts).
//   npm run bench:condition-effect [-- --studies 200 --replicates 1000]
// 1. One simulated study with a known effect: truth, estimate and 95% interval, overall and per task; the
//    interval's ends under other seeds (Monte Carlo error of B = 2000).
// 2. Coverage over many simulated studies: how often the crossed interval holds the truth, beside the same
//    bootstrap resampling participants only (all items one unit) and answers only (every answer its own unit).
// 3. Run time at the size of a large study (200,000 answers, 10 columns + overall, 2000 replicates).
// Data model (linear probability, so the truth is exactly the population difference):
//   p = 0.5 + 0.10·[interactive] + u_participant + v_item + w_item·[interactive],
//   u, v ~ U(−0.15, 0.15), w ~ U(−0.10, 0.10) (the 3D view helps some items more than others), p stays in [0.2, 1].
import { parseArgs } from "node:util";
import { createRng } from "../lib/rng.ts";
import { conditionEffects, crossedBootstrapConditionEffect, type CrossedAnswer } from "../lib/stats/crossed-bootstrap.ts";

const TRUTH = 0.1;
const { values: args } = parseArgs({ options: { studies: { type: "string", default: "200" }, replicates: { type: "string", default: "1000" } } });
const STUDIES = Number(args.studies);
const REPLICATES = Number(args.replicates);

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
        out.push({ participantId: `${condition}-${p}`, itemId: `item-${i}`, task: `T${(i % d.tasks) + 1}`, condition, correct: rng.next() < prob ? 1 : 0 });
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
console.log(`truth ${pp(TRUTH)} pp; B = ${effects.overall.replicates}, seed ${effects.overall.seed}; ${ms.toFixed(0)} ms for overall + ${design.tasks} tasks`);
for (const [name, e] of [["overall", effects.overall] as const, ...Object.entries(effects.byTask)]) {
  const covers = e.low !== null && e.high !== null && e.low <= TRUTH && TRUTH <= e.high;
  console.log(
    `  ${name.padEnd(8)} estimate ${pp(e.estimate)} pp  95% [${pp(e.low)}, ${pp(e.high)}]  n answers static ${e.byCondition.static.nAnswers} / interactive ${e.byCondition.interactive.nAnswers}  ${covers ? "covers the truth" : "MISSES the truth"}`,
  );
}

// Monte Carlo error of the interval's ends: the same study with other seeds.
const ends = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => crossedBootstrapConditionEffect(study, { seed }));
const spread = (xs: number[]) => `${pp(Math.min(...xs))} … ${pp(Math.max(...xs))}`;
console.log(`  overall with 8 other seeds: low ${spread(ends.map((e) => e.low!))} pp, high ${spread(ends.map((e) => e.high!))} pp`);

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
  console.log(`  resampling ${name.padEnd(12)} coverage ${((100 * hits) / STUDIES).toFixed(1)} %  mean width ${(100 * (width / STUDIES)).toFixed(1)} pp`);
}

// 3. Run time at a large study's size.
const large = simulate("large", { perCondition: 500, items: 500, itemsPerParticipant: 200, tasks: 10 });
const t2 = performance.now();
const largeEffects = conditionEffects(large);
console.log(
  `\nLarge study: ${large.length} answers, 1000 participants, 500 items, overall + 10 tasks, B = ${largeEffects.overall.replicates}: ${((performance.now() - t2) / 1000).toFixed(2)} s` +
    ` (overall ${pp(largeEffects.overall.estimate)} pp [${pp(largeEffects.overall.low)}, ${pp(largeEffects.overall.high)}])`,
);
