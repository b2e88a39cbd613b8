/**
 * Pass 4.5 of ChimeraX's computed IDATM typing (../shared/spec/hbond-criteria.md §6.3): planar rings of
 * non-template residues are grouped into fused ring systems, every consistent single/double assignment of
 * the ring bonds is enumerated from valence rules (with the exocyclic bonds classified single, double or
 * ambiguous from the neighbours' types), and the best assignment is chosen by (1) most atoms in 4n+2
 * rings, (2) fewest N2+/Oar+, (3) best fit of bond lengths (double bonds on the shorter bonds). Each ring
 * that the best assignment makes aromatic gets Car/Oar/Sar; the two-bond ring nitrogens of every ring in
 * the system are typed from the assignment (bond-order sum 2: Npl, the N–H; otherwise N2), aromatic or
 * not. That last rule is what types guanine N1 as N–H and N3 as N2 (C2=N3, the shorter bond), and flavin
 * N3 as N–H beside its two carbonyls.
 *
 * Written from the spec's description and ChimeraX's behaviour; the charged retry, the flip of
 * possibly-ambiguous exocyclic bonds and the retyping of uncertain neighbours are included, each tried
 * only when the previous step finds no assignment, as ChimeraX does.
 */
import type { Atom } from "../types";
import { findElement } from "./elements";

type Order = 0 | 1 | 2; // 0 ambiguous, 1 single, 2 double

interface RingPassState {
  atoms: readonly Atom[];
  adj: readonly (readonly number[])[];
  types: (string | null)[];
  /** Geometry of a type (0 = not in the IDATM table). */
  geometryOf: (type: string) => number;
  /** Re-examine codes of pass 2 (1, 2, 3, −1), as the typing left them. */
  redo: ReadonlyMap<number, number>;
  /** Two-neighbour carbons whose bond angle was within the ambiguous band of pass 2. */
  ambiguousVal2Cs: ReadonlySet<number>;
}

const atomicNumber = (a: Atom) => findElement(a.element)?.atomicNumber ?? 0;
const dist2 = (a: Atom, b: Atom) => (a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2;

/** Bond-length aromaticity index over C–C and C–N ring bonds (HOMA-like; §6.3). */
function aromaticGeometry(atoms: readonly Atom[], bonds: readonly (readonly [number, number])[]): boolean {
  let sum = 0;
  let n = 0;
  for (const [i, j] of bonds) {
    const e1 = atoms[i]!.element;
    const e2 = atoms[j]!.element;
    const d = Math.sqrt(dist2(atoms[i]!, atoms[j]!));
    let delta: number;
    if (e1 === "C" && e2 === "C") delta = d - 1.38586;
    else if ((e1 === "C" || e2 === "C") && (e1 === "N" || e2 === "N")) delta = d - 1.34148;
    else continue;
    n++;
    sum += delta * delta;
  }
  if (n === 0) return false;
  const homa = 1 - (792 * sum) / n;
  if (homa >= 0.5) return true;
  return !(n * homa < -35);
}

const RING_TYPES = new Set(["C2", "Npl", "Sar", "O3", "S3", "N3", "Oar", "Oar+", "P", "Car", "N2", "N2+"]);

/** Subsets of `items` in order of size, each size in index order (ChimeraX's "permutations"). */
function subsetsBySize<T>(items: readonly T[], maxItems = 8): T[][] {
  const list = items.slice(0, maxItems);
  const out: T[][] = [];
  let last: { set: T[]; next: number }[] = list.map((x, i) => ({ set: [x], next: i + 1 }));
  while (last.length > 0) {
    out.push(...last.map((g) => g.set));
    const gen: { set: T[]; next: number }[] = [];
    for (const g of last)
      for (let k = g.next; k < list.length; k++) gen.push({ set: [...g.set, list[k]!], next: k + 1 });
    last = gen;
  }
  return out;
}

/** An uncertain ring neighbour tried the other way (C2↔C3, Npl↔N2). */
function invertedType(t: string | null): string | null {
  return t === "C3" ? "C2" : t === "C2" ? "C3" : t === "Npl" ? "N2" : t === "N2" ? "Npl" : t;
}

/** Upper bound on enumerated assignments per ring system (a guard; real ligands stay far below it). */
const MAX_ASSIGNMENTS = 20000;

/**
 * Runs pass 4.5 on the rings whose atoms are all computed (`mine`); mutates `types`. Returns the ring
 * nitrogens typed here (later passes leave them alone).
 */
export function assignRingBondOrders(
  state: RingPassState,
  rings: readonly (readonly number[])[],
  mine: ReadonlySet<number>,
): Set<number> {
  const { atoms, adj, types, geometryOf } = state;
  const ringAssignedNs = new Set<number>();
  const n = atoms.length;
  const key = (i: number, j: number) => (i < j ? i * n + j : j * n + i);
  const T = (i: number) => types[i] ?? atoms[i]!.element;
  const deg = (i: number) => adj[i]!.length;

  // Candidate planar rings.
  interface Ring {
    atoms: readonly number[];
    bonds: [number, number][];
    bondKeys: Set<number>;
  }
  const planar: Ring[] = [];
  for (const r of rings) {
    if (!r.every((i) => mine.has(i))) continue;
    if (r.length === 3) {
      for (const i of r) if (atoms[i]!.element === "C") types[i] = "C3";
      continue;
    }
    const inRing = new Set(r);
    const bonds: [number, number][] = [];
    for (const i of r) for (const j of adj[i]!) if (j > i && inRing.has(j)) bonds.push([i, j]);
    let planarTypes = true;
    let allPlanar = true;
    let oxygens = 0;
    for (const i of r) {
      const t = T(i);
      if (atoms[i]!.element === "O") oxygens++;
      if (deg(i) > 3 || !(RING_TYPES.has(t) || (t === "C3" && deg(i) === 2))) {
        planarTypes = false;
        break;
      }
      if (t === "O3" || t === "S3" || t === "N3" || t === "C3") allPlanar = false;
    }
    if (!planarTypes) continue;
    if (r.length === 5 && oxygens > 1 && oxygens < 5) continue;
    if (allPlanar || aromaticGeometry(atoms, bonds))
      planar.push({ atoms: r, bonds, bondKeys: new Set(bonds.map(([i, j]) => key(i, j))) });
  }

  // Fused ring systems (rings sharing a bond).
  const seen = new Set<number>();
  for (let start = 0; start < planar.length; start++) {
    if (seen.has(start)) continue;
    const systemRings: Ring[] = [];
    const queue = [start];
    seen.add(start);
    while (queue.length > 0) {
      const q = queue.pop()!;
      systemRings.push(planar[q]!);
      for (let other = 0; other < planar.length; other++) {
        if (seen.has(other)) continue;
        if ([...planar[other]!.bondKeys].some((k) => planar[q]!.bondKeys.has(k))) {
          seen.add(other);
          queue.push(other);
        }
      }
    }
    typeRingSystem(systemRings);
  }
  return ringAssignedNs;

  function typeRingSystem(systemRings: Ring[]): void {
    const sysAtoms = new Set<number>();
    const bondList: [number, number][] = [];
    const bondIndex = new Map<number, number>();
    for (const r of systemRings) {
      for (const i of r.atoms) sysAtoms.add(i);
      for (const [i, j] of r.bonds) {
        const k = key(i, j);
        if (!bondIndex.has(k)) {
          bondIndex.set(k, bondList.length);
          bondList.push([i, j]);
        }
      }
    }
    if (sysAtoms.size > 50) {
      for (const i of sysAtoms) {
        if (atoms[i]!.element === "C") types[i] = "Car";
        else if (atoms[i]!.element === "O") types[i] = "Oar";
      }
      return;
    }

    // Exocyclic bonds: judged single, double or ambiguous from the outside atom's type and surroundings.
    const connected = new Map<number, Order>();
    const ringNeighbours: [number, number][] = []; // [outside atom, bond key]
    const possiblyAmbiguous: [number, number][] = []; // [bond key, outside atom]
    for (const a of [...sysAtoms].sort((x, y) => x - y)) {
      for (const nb of adj[a]!) {
        if (sysAtoms.has(nb)) continue;
        const bk = key(a, nb);
        ringNeighbours.push([nb, bk]);
        if (state.ambiguousVal2Cs.has(nb)) {
          connected.set(bk, 0);
          continue;
        }
        const geom = geometryOf(T(nb));
        if (geom === 0) {
          connected.set(bk, 1);
          continue;
        }
        if (geom !== 3) {
          connected.set(bk, 1);
          if (geom === 4 && deg(nb) === 1) possiblyAmbiguous.push([bk, nb]);
          continue;
        }
        if (atoms[nb]!.element === "N") {
          connected.set(bk, 1); // aniline-like N can be planar
          continue;
        }
        let outsideDouble = false;
        let ambiguous = state.redo.get(nb) === -1;
        if (deg(nb) === 1) {
          if (atoms[a]!.element === "N" && atoms[nb]!.element === "O") connected.set(bk, 1);
          else {
            connected.set(bk, 2);
            possiblyAmbiguous.push([bk, nb]);
          }
          continue;
        }
        for (const n2 of adj[nb]!) {
          if (n2 === a || geometryOf(T(n2)) !== 3) continue;
          let allSingle = true;
          for (const n3 of adj[n2]!) {
            if (n3 === nb || geometryOf(T(n3)) !== 3) continue;
            ambiguous = true;
            allSingle = false;
          }
          if (allSingle) {
            outsideDouble = true;
            break;
          }
        }
        connected.set(bk, outsideDouble ? 1 : ambiguous ? 0 : 2);
      }
    }

    const enumerate = (allowCharged: boolean): number[][] => {
      const out: number[][] = [];
      const cur = new Array<number>(bondList.length).fill(0);
      const step = (k: number) => {
        if (out.length >= MAX_ASSIGNMENTS) return;
        const [i, j] = bondList[k]!;
        let ok1 = true;
        let ok2 = true;
        for (const end of [i, j]) {
          let complete = true;
          let sum = 0;
          let hasAmbiguous = deg(end) === 2; // an implied hydrogen counts as an ambiguous exocyclic bond
          for (const other of adj[end]!) {
            if (other === (end === i ? j : i)) continue;
            const bk = key(end, other);
            const pos = bondIndex.get(bk);
            if (pos !== undefined) {
              if (pos > k) {
                complete = false;
                break;
              }
              sum += cur[pos]!;
              continue;
            }
            const c = connected.get(bk) ?? 0;
            if (c === 0) {
              sum++;
              hasAmbiguous = true;
            } else sum += c;
            if (c === 2) ok2 = false;
          }
          if (deg(end) === 2) {
            if (sum === 2) ok2 = false;
          } else {
            if (sum > 3) {
              ok1 = ok2 = false;
              break;
            }
            if (sum === 3) ok2 = false;
          }
          if (!complete) continue;
          const z = atomicNumber(atoms[end]!);
          if (z > 20) continue;
          let ve = (z - 2) % 8;
          if (ve >= 4) {
            let chargeMod = 0;
            ve += sum;
            if (allowCharged && ((z === 7 && deg(end) === 3) || (z === 8 && deg(end) === 2))) {
              chargeMod = 1;
              hasAmbiguous = true;
            }
            if (hasAmbiguous) {
              if (ve < 6 || ve > 7 + chargeMod) ok1 = false;
              if (ve < 5 || ve > 6 + chargeMod) ok2 = false;
            } else {
              if (ve !== 7) ok1 = false;
              if (ve !== 6) ok2 = false;
            }
          } else {
            ve -= sum;
            if (hasAmbiguous) {
              if (ve < 1 || ve > 2) ok1 = false;
              if (ve < 2 || ve > 3) ok2 = false;
            } else {
              if (ve !== 1) ok1 = false;
              if (ve !== 2) ok2 = false;
            }
          }
        }
        for (const [ok, order] of [
          [ok1, 1],
          [ok2, 2],
        ] as const) {
          if (!ok) continue;
          cur[k] = order;
          if (k + 1 < bondList.length) step(k + 1);
          else out.push([...cur]);
          cur[k] = 0;
        }
      };
      if (bondList.length > 0) step(0);
      return out;
    };

    let assignments = enumerate(false);
    if (assignments.length === 0) assignments = enumerate(true);
    else {
      // A ring with N/O and no aromatic (size + size/2 bond-order sum) assignment: add the charged ones too.
      const addCharged = systemRings.some((r) => {
        if (!r.atoms.some((i) => atoms[i]!.element === "N" || atoms[i]!.element === "O")) return false;
        const size = r.bonds.length;
        return !assignments.some(
          (as) => r.bonds.reduce((s, [i, j]) => s + as[bondIndex.get(key(i, j))!]!, 0) === size + Math.floor(size / 2),
        );
      });
      if (addCharged) assignments = [...enumerate(true), ...assignments];
    }
    if (assignments.length === 0 && possiblyAmbiguous.length > 0) {
      // Flip the least certain exocyclic C=O / C=S (or C–X) bonds until an assignment exists.
      const certainty = ([bk, outside]: [number, number]) => {
        const [i, j] = [Math.floor(bk / n), bk % n];
        const len2 = dist2(atoms[i]!, atoms[j]!);
        const e = atoms[outside]!.element;
        return Math.abs(e === "O" ? len2 - 1.3 * 1.3 : e === "S" ? len2 - 1.76 * 1.76 : 0);
      };
      const flippable = [...possiblyAmbiguous].sort((p, q) => certainty(p) - certainty(q));
      for (const allowCharged of [false, true]) {
        for (const flip of subsetsBySize(flippable)) {
          for (const [bk] of flip) connected.set(bk, (3 - (connected.get(bk) ?? 0)) as Order);
          assignments = enumerate(allowCharged);
          if (assignments.length > 0) {
            for (const [bk, outside] of flip) {
              const e = atoms[outside]!.element;
              const single = connected.get(bk) === 1;
              if (e === "O") types[outside] = single ? "O3" : "O2";
              else if (e === "S") types[outside] = single ? "S3" : "S2";
            }
            break;
          }
          for (const [bk] of flip) connected.set(bk, (3 - (connected.get(bk) ?? 0)) as Order);
        }
        if (assignments.length > 0) break;
      }
    }
    let assignedUncertains: number[][] = [];
    if (assignments.length === 0) {
      // Neighbours whose type pass 2 was unsure of (re-examine codes): try them inverted (C2↔C3, Npl↔N2).
      const uncertain = ringNeighbours.filter(([outside]) => (state.redo.get(outside) ?? 0) !== 0);
      const invert = (set: [number, number][]) => {
        for (const [outside, bk] of set) {
          connected.set(bk, (3 - (connected.get(bk) ?? 0)) as Order);
          types[outside] = invertedType(types[outside] ?? null);
        }
      };
      for (const allowCharged of [false, true]) {
        if (uncertain.length === 0 || assignments.length > 0) break;
        let limit = uncertain.length;
        for (const set of subsetsBySize(uncertain)) {
          if (set.length > limit) break;
          invert(set);
          const found = enumerate(allowCharged);
          if (found.length > 0) {
            limit = set.length;
            assignments.push(...found);
            assignedUncertains.push(...found.map(() => set.map(([o]) => o)));
          }
          invert(set);
        }
      }
      if (assignments.length === 0) assignedUncertains = [];
    }
    if (assignments.length === 0) return; // no consistent bond orders: ring atoms keep their pass-2 types

    const orderOf = (as: number[], i: number, j: number) => {
      const pos = bondIndex.get(key(i, j));
      return pos === undefined ? undefined : as[pos];
    };
    const isN2plus = (as: number[], a: number) => {
      let sum = 0;
      let target = 4;
      for (const j of adj[a]!) {
        const o = orderOf(as, a, j);
        if (o === undefined) target -= 1;
        else sum += o;
      }
      return sum === target;
    };
    const isOarPlus = (as: number[], a: number) => {
      let sum = 0;
      for (const j of adj[a]!) {
        const o = orderOf(as, a, j);
        if (o === undefined) return false;
        sum += o;
      }
      return sum === 3;
    };

    const bestIndex = findBestAssignment(assignments);
    const best = assignments[bestIndex]!;
    if (assignedUncertains.length > 0) {
      for (const outside of assignedUncertains[bestIndex]!) {
        const bk = ringNeighbours.find(([o]) => o === outside)![1];
        connected.set(bk, (3 - (connected.get(bk) ?? 0)) as Order);
        types[outside] = invertedType(types[outside] ?? null);
      }
    }
    for (const ring of systemRings) {
      let minFree = 0;
      let maxFree = 0;
      let aro = true;
      for (const a of ring.atoms) {
        const d = deg(a);
        minFree++;
        const z = atomicNumber(atoms[a]!);
        if (d === 2) {
          if (z > 20) {
            maxFree += 2;
            continue;
          }
          const valence = (z - 2) % 8;
          if (valence < 3 || valence === 7) {
            aro = false;
            break;
          }
          if (valence < 5) maxFree++;
          else if (valence === 5) {
            const [b0, b1] = adj[a]!;
            const sum = (orderOf(best, a, b0!) ?? 0) + (orderOf(best, a, b1!) ?? 0);
            if (sum === 2) {
              minFree++;
              maxFree += 2;
            } else maxFree++;
          } else if (z === 8 && isOarPlus(best, a)) maxFree++;
          else {
            minFree++;
            maxFree += 2;
          }
        } else if (d === 3) {
          let bo: Order = 0;
          const out = adj[a]!.find((j) => !ring.bondKeys.has(key(a, j)))!;
          const bk = key(a, out);
          if (connected.has(bk)) bo = connected.get(bk)!;
          else {
            for (const as of assignments) {
              const o = (orderOf(as, a, out) ?? 0) as Order;
              if (bo === 0) bo = o;
              else if (bo !== o) {
                bo = 0;
                break;
              }
            }
          }
          if (z > 20) {
            maxFree += 2;
            continue;
          }
          const valence = (z - 2) % 8;
          if (valence < 4 || valence > 5) {
            aro = false;
            break;
          }
          if (valence === 4) {
            if (bo === 2) {
              // a carbon with an exocyclic double bond breaks aromaticity unless that bond is to a fused ring
              const fused = deg(out) > 1 && systemRings.some((s) => s !== ring && s.atoms.includes(a));
              if (!fused) {
                aro = false;
                break;
              }
            }
            maxFree += 1;
          } else if (bo === 2 || (z === 7 && isN2plus(best, a))) maxFree += 1;
          else {
            minFree++;
            maxFree += 2;
          }
        } else {
          aro = false;
          break;
        }
      }
      if (aro) {
        const aroEval = (minFree - 2) % 4;
        if (aroEval !== 0 && aroEval + (maxFree - minFree) < 4) aro = false;
      }
      const protonatable: number[] = [];
      for (const a of ring.atoms) {
        const e = atoms[a]!.element;
        if (e === "N") {
          if (deg(a) === 2) protonatable.push(a);
          else if (aro && isN2plus(best, a)) {
            types[a] = "N2+";
            if (deg(a) === 3) for (const j of adj[a]!) if (atoms[j]!.element === "O" && deg(j) === 1) types[j] = "O3-";
          }
          continue;
        }
        if (!aro) continue;
        if (e === "C") types[a] = "Car";
        else if (e === "O") types[a] = isOarPlus(best, a) ? "Oar+" : "Oar";
        else if (e === "S") types[a] = "Sar";
      }
      for (const a of protonatable) {
        const sum = adj[a]!.reduce((s, j) => s + (orderOf(best, a, j) ?? 0), 0);
        types[a] = sum === 2 ? "Npl" : "N2";
        ringAssignedNs.add(a);
      }
    }

    function findBestAssignment(list: number[][]): number {
      if (list.length === 1) return 0;
      const plus = list.map((as) => {
        let count = 0;
        for (const a of sysAtoms) {
          const e = atoms[a]!.element;
          if ((e === "N" && isN2plus(as, a)) || (e === "O" && isOarPlus(as, a))) count++;
        }
        return count;
      });
      // 1. most atoms in 4n+2 rings
      let okay: number[] = [];
      let bestAro = 0;
      list.forEach((as, idx) => {
        const sumOrders = new Map<number, number>();
        const sumBonds = new Map<number, number>();
        bondList.forEach(([i, j], p) => {
          for (const x of [i, j]) {
            sumOrders.set(x, (sumOrders.get(x) ?? 0) + as[p]!);
            sumBonds.set(x, (sumBonds.get(x) ?? 0) + 1);
          }
        });
        let numAro = 0;
        for (const ring of systemRings) {
          let pi = 0;
          for (const a of ring.atoms) {
            const sum = sumOrders.get(a) ?? 0;
            const z = atomicNumber(atoms[a]!);
            if (z > 20) {
              pi = 0;
              break;
            }
            const valence = (z - 2) % 8;
            if (valence < 3 || valence > 6) {
              pi = 0;
              break;
            }
            if (valence === 4) {
              if (sum === 2 && sumBonds.get(a) === 2) {
                pi = 0; // its exocyclic bond is double
                break;
              }
              pi++;
            } else if (valence > 4) {
              if (valence === 5 && sum !== 3 && ring.atoms.length === 5) {
                pi = 0;
                break;
              }
              pi += 2 - (sum !== 2 ? 1 : 0);
            } else if (deg(a) === 2 && sum === 2) pi++;
            else {
              pi = 0;
              break;
            }
          }
          if (pi % 4 === 2) numAro += ring.atoms.length;
        }
        if (numAro > 0 && numAro >= bestAro) {
          if (numAro > bestAro) okay = [];
          okay.push(idx);
          bestAro = numAro;
        }
      });
      if (okay.length === 1) return okay[0]!;
      // 2. fewest N2+/Oar+
      const pool = okay.length > 0 ? okay : list.map((_, i) => i);
      const low = Math.min(...pool.map((i) => plus[i]!));
      const next = pool.filter((i) => plus[i] === low);
      if (next.length === 1) return next[0]!;
      // 3. best fit of bond lengths: order-weighted mean squared length, smallest wins (first on ties)
      let bestVal = 0;
      let bestIdx = next[0]!;
      for (const idx of next) {
        let val = 0;
        let orderSum = 0;
        bondList.forEach(([i, j], p) => {
          val += dist2(atoms[i]!, atoms[j]!) * list[idx]![p]!;
          orderSum += list[idx]![p]!;
        });
        val /= orderSum;
        if (bestVal === 0 || val < bestVal) {
          bestVal = val;
          bestIdx = idx;
        }
      }
      return bestIdx;
    }
  }
}
