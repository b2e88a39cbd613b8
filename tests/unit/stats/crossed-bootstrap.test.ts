import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/rng";
import { bootstrapClusterMean } from "@/lib/stats/bootstrap";
import {
  conditionEffects,
  createParkMiller,
  crossedBootstrapConditionEffect,
  crossedBootstrapReplicates,
  parkMillerState,
  type CrossedAnswer,
} from "@/lib/stats/crossed-bootstrap";
import { referenceReplicates } from "../../helpers/crossed-bootstrap-reference";

const M = 2147483647;

function ans(
  participantId: string,
  itemId: string,
  condition: "static" | "interactive",
  correct: number,
  task = "T1",
): CrossedAnswer {
  return { participantId, itemId, task, condition, correct };
}

describe("Park–Miller minimal standard generator", () => {
  it("gives the published sequence from seed 1", () => {
    const r = createParkMiller(1);
    const states: number[] = [];
    for (let i = 0; i < 3; i++) {
      r.next();
      states.push(r.state());
    }
    // 16807 = 7^5; 16807^2 = 282475249 (< M); 16807 * 282475249 mod M = 1622650073.
    expect(states).toEqual([16807, 282475249, 1622650073]);
    expect(16807 * 282475249 - Math.floor((16807 * 282475249) / M) * M).toBe(1622650073);
  });

  it("reaches 1043618065 after 10 000 steps from seed 1 (Park & Miller 1988's check value)", () => {
    const r = createParkMiller(1);
    for (let i = 0; i < 10000; i++) r.next();
    expect(r.state()).toBe(1043618065);
  });

  it("returns u = s / (2^31 − 1) and maps every seed into 1..2^31 − 2", () => {
    expect(createParkMiller(1).next()).toBe(16807 / M);
    expect(parkMillerState(20261201)).toBe(20261201);
    expect(parkMillerState(0)).toBe(2147483646);
    expect(parkMillerState(2147483647)).toBe(1);
    expect(parkMillerState(-1)).toBe(2147483645);
    expect(() => parkMillerState(1.5)).toThrow(/integer/);
  });
});

// a answers interactive (both right); b and c answer static (b: i1 right, c: i2 right).
const HAND = [
  ans("a", "i1", "interactive", 1),
  ans("a", "i2", "interactive", 1),
  ans("b", "i1", "static", 1),
  ans("b", "i2", "static", 0),
  ans("c", "i1", "static", 0),
  ans("c", "i2", "static", 1),
];

describe("crossed bootstrap: hand-checked replicates", () => {
  it("reproduces three replicates worked out by hand from seed 1", () => {
    // Draw u values from seed 1 (states / M): 0.00001 0.13154 0.75561 | 0.45865 0.53277 | 0.21896 0.04704 0.67886 |
    // 0.67930 0.93469 | 0.38350 0.51942 0.83097 | 0.03457 0.05346. Participants [a,b,c] take floor(3u), items [i1,i2] floor(2u).
    // Replicate 1: a,a,c × i1,i2 → interactive 4/4 = 1, static (c) 1/2 → 0.5.
    // Replicate 2: a,a,c × i2,i2 → interactive 4/4 = 1, static c·i2 2/2 = 1 → 0.
    // Replicate 3: b,b,c (no a) → no interactive weight: skipped (its item draws are still consumed).
    const reps = crossedBootstrapReplicates(HAND, { seed: 1, replicates: 3 });
    expect(reps).toEqual({ values: [0.5, 0], skipped: 1 });
    const effect = crossedBootstrapConditionEffect(HAND, { seed: 1, replicates: 3 });
    // Estimate: interactive 2/2 − static 2/4 = 0.5. Type-7 quantiles of [0, 0.5]: h = 0.025 → 0.0125; h = 0.975 → 0.4875.
    expect(effect.estimate).toBe(0.5);
    expect(effect.low).toBeCloseTo(0.0125, 15);
    expect(effect.high).toBeCloseTo(0.4875, 15);
    expect(effect.skipped).toBe(1);
    expect(effect.seed).toBe(1);
    expect(effect.nParticipants).toBe(3);
    expect(effect.nItems).toBe(2);
    expect(effect.byCondition.interactive).toEqual({
      nParticipants: 1,
      nItems: 2,
      nAnswers: 2,
      nCorrect: 2,
      accuracy: 1,
    });
    expect(effect.byCondition.static).toEqual({ nParticipants: 2, nItems: 2, nAnswers: 4, nCorrect: 2, accuracy: 0.5 });
  });

  it("does not depend on the order of the answers", () => {
    const a = crossedBootstrapConditionEffect(HAND, { seed: 7, replicates: 200 });
    const b = crossedBootstrapConditionEffect([...HAND].reverse(), { seed: 7, replicates: 200 });
    expect(b).toEqual(a);
  });

  it("is not estimable with one condition, and rejects bad input clearly", () => {
    const onlyStatic = HAND.filter((x) => x.condition === "static");
    const effect = crossedBootstrapConditionEffect(onlyStatic, { seed: 1, replicates: 10 });
    expect(effect).toMatchObject({ estimate: null, low: null, high: null, skipped: 0, nAnswers: 4 });
    expect(crossedBootstrapConditionEffect([]).estimate).toBeNull();
    expect(() => crossedBootstrapConditionEffect([ans("a", "i", "interactive", 2)])).toThrow(
      /answer 0: correct must be 0 or 1/,
    );
    expect(() =>
      crossedBootstrapConditionEffect([{ ...ans("a", "i", "static", 1), condition: "3d" as never }]),
    ).toThrow(/answer 0: condition/);
    expect(() => crossedBootstrapConditionEffect(HAND, { replicates: 0 })).toThrow(/replicates/);
  });
});

function crossedStudy(
  seed: string,
  nPerCondition: number,
  nItems: number,
  itemsPerParticipant: number,
  trueEffect: number,
): CrossedAnswer[] {
  // Linear-probability model: p = 0.55 + effect·[interactive] + u_participant + v_item, u and v uniform on ±0.15,
  // so p stays inside (0, 1) and the population accuracy difference is exactly the effect.
  const rng = createRng(seed);
  const itemEffect = Array.from({ length: nItems }, () => (rng.next() - 0.5) * 0.3);
  const out: CrossedAnswer[] = [];
  for (const condition of ["static", "interactive"] as const) {
    for (let p = 0; p < nPerCondition; p++) {
      const id = `${condition[0]}${String(p).padStart(3, "0")}`;
      const u = (rng.next() - 0.5) * 0.3;
      const chosen = rng.shuffle(Array.from({ length: nItems }, (_, i) => i)).slice(0, itemsPerParticipant);
      for (const i of chosen) {
        const prob = 0.55 + (condition === "interactive" ? trueEffect : 0) + u + itemEffect[i]!;
        out.push(ans(id, `item${String(i).padStart(3, "0")}`, condition, rng.next() < prob ? 1 : 0, `T${(i % 3) + 1}`));
      }
    }
  }
  return out;
}

describe("crossed bootstrap against independent computations", () => {
  it("matches a materialising re-implementation replicate for replicate", () => {
    const data = crossedStudy("reference", 5, 6, 4, 0.1);
    const ours = crossedBootstrapReplicates(data, { seed: 12345, replicates: 300 });
    const ref = referenceReplicates(data, 12345, 300);
    expect(ours.skipped).toBe(ref.skipped);
    expect(ours.values.length).toBe(ref.values.length);
    ours.values.forEach((v, k) => expect(v).toBeCloseTo(ref.values[k]!, 12));
  });

  it("matches the exact bootstrap distribution on a 3 × 3 crossed data set (all 27 × 27 resamplings)", () => {
    // p1 interactive, p2 static, p3 interactive on i1 and static on i2, i3.
    const data = [
      ans("p1", "i1", "interactive", 1),
      ans("p1", "i2", "interactive", 1),
      ans("p1", "i3", "interactive", 0),
      ans("p2", "i1", "static", 0),
      ans("p2", "i2", "static", 1),
      ans("p2", "i3", "static", 0),
      ans("p3", "i1", "interactive", 1),
      ans("p3", "i2", "static", 0),
      ans("p3", "i3", "static", 1),
    ];
    const ids = ["p1", "p2", "p3"];
    const items = ["i1", "i2", "i3"];
    const exact = new Map<number, number>();
    let degenerate = 0;
    for (let pc = 0; pc < 27; pc++) {
      const cP = [0, 0, 0];
      for (let k = 0, x = pc; k < 3; k++, x = Math.floor(x / 3)) cP[x % 3]! += 1;
      for (let ic = 0; ic < 27; ic++) {
        const cI = [0, 0, 0];
        for (let k = 0, x = ic; k < 3; k++, x = Math.floor(x / 3)) cI[x % 3]! += 1;
        const sums = { static: [0, 0], interactive: [0, 0] };
        for (const a of data) {
          const w = cP[ids.indexOf(a.participantId)]! * cI[items.indexOf(a.itemId)]!;
          sums[a.condition][0]! += w * a.correct;
          sums[a.condition][1]! += w;
        }
        if (sums.static[1] === 0 || sums.interactive[1] === 0) {
          degenerate += 1 / 729;
          continue;
        }
        const v =
          Math.round((sums.interactive[0]! / sums.interactive[1]! - sums.static[0]! / sums.static[1]!) * 1e9) / 1e9;
        exact.set(v, (exact.get(v) ?? 0) + 1 / 729);
      }
    }
    const B = 40000;
    const { values, skipped } = crossedBootstrapReplicates(data, { seed: 20261201, replicates: B });
    // Monte Carlo frequencies within 4.5 standard errors of the exact probabilities.
    const within = (freq: number, prob: number) =>
      Math.abs(freq - prob) <= 4.5 * Math.sqrt((prob * (1 - prob)) / B) + 1e-12;
    expect(within(skipped / B, degenerate)).toBe(true);
    const observed = new Map<number, number>();
    for (const v of values) {
      const key = Math.round(v * 1e9) / 1e9;
      observed.set(key, (observed.get(key) ?? 0) + 1 / B);
    }
    for (const key of observed.keys()) expect(exact.has(key), `value ${key} is impossible`).toBe(true);
    for (const [key, prob] of exact)
      expect(within(observed.get(key) ?? 0, prob), `P(${key}) = ${prob}, observed ${observed.get(key) ?? 0}`).toBe(
        true,
      );
    // Exact mean of the non-degenerate distribution vs the Monte Carlo mean.
    const exactMean = [...exact].reduce((t, [v, p]) => t + v * p, 0) / (1 - degenerate);
    const mcMean = values.reduce((t, v) => t + v, 0) / values.length;
    const exactSd = Math.sqrt([...exact].reduce((t, [v, p]) => t + (v - exactMean) ** 2 * p, 0) / (1 - degenerate));
    expect(Math.abs(mcMean - exactMean)).toBeLessThan((4.5 * exactSd) / Math.sqrt(values.length));
  });
});

describe("crossed bootstrap on a simulated study with a known effect", () => {
  it("covers the true +10 pp and is wider than the participant-only bootstrap", () => {
    const data = crossedStudy("known-effect", 40, 60, 30, 0.1);
    const effect = crossedBootstrapConditionEffect(data, { replicates: 2000 });
    expect(effect.estimate).not.toBeNull();
    expect(effect.low! <= 0.1 && 0.1 <= effect.high!).toBe(true);
    expect(effect.byCondition.static.nParticipants).toBe(40);
    expect(effect.byCondition.interactive.nAnswers).toBe(1200);
    // Resampling items as well adds the item variance the participant-only interval of each accuracy misses.
    const participantOnly = (c: "static" | "interactive") => {
      const groups = new Map<string, number[]>();
      for (const a of data.filter((x) => x.condition === c))
        groups.set(a.participantId, [...(groups.get(a.participantId) ?? []), a.correct]);
      return bootstrapClusterMean([...groups.values()], { seed: `po-${c}`, replicates: 2000 });
    };
    const s = participantOnly("static");
    const x = participantOnly("interactive");
    // Width of the difference under participant-only resampling, the two conditions independent: sqrt(w_s² + w_x²).
    const poWidth = Math.hypot(s.high! - s.low!, x.high! - x.low!);
    expect(effect.high! - effect.low!).toBeGreaterThan(poWidth);
  });

  it("runs overall and per task from the same seed", () => {
    const data = crossedStudy("tasks", 10, 12, 12, 0.1);
    const all = conditionEffects(data, { replicates: 300 });
    expect(Object.keys(all.byTask)).toEqual(["T1", "T2", "T3"]);
    expect(all.byTask.T2).toEqual(
      crossedBootstrapConditionEffect(
        data.filter((a) => a.task === "T2"),
        { replicates: 300 },
      ),
    );
    expect(all.overall).toEqual(crossedBootstrapConditionEffect(data, { replicates: 300 }));
    expect(all.overall.nAnswers).toBe(240);
  });
});
