/**
 * The verdict on one donor → acceptor pair (spec §1.1 step 5): the acceptor group's test, the donor
 * group's test against the acceptor's class, then the metal veto, all from hbond-geometry.ts with the
 * rows hbond-groups.ts chose and the hydrogens hbond-hydrogens.ts inferred.
 */
import { positionOf } from "./types";
import type { Vec3 } from "./geometry/vec3";
import {
  type AcceptorSite,
  acceptorClassOf,
  genericAcceptorTest,
  genericDonorTest,
  metalVeto,
  phiPsiAcceptorTest,
  synAntiAcceptorTest,
  tauTest,
  thetaTauAcceptorTest,
  thetaTauDonorTest,
  upsilonTauDonorTest,
  waterDonorTest,
  withSulfurCompensation,
} from "./hbond-geometry";
import type { AcceptorSpec, DonorSpec } from "./hbond-groups";
import type { HBondContext } from "./hbond-context";
import { donorHydrogens, oppositeLonePairs, tauSubstituents } from "./hbond-hydrogens";
import { ANILINE_ACCEPTOR_TAU } from "./hbond-tables";

function acceptorTest(ctx: HBondContext, spec: AcceptorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph } = ctx;
  const at = (j: number) => positionOf(atoms[j]!);
  const A = at(a);
  const D = at(d);
  const slop = atoms[d]!.element === "S" ? withSulfurCompensation(ctx.slop) : ctx.slop;
  switch (spec.test) {
    case "syn/anti":
      return synAntiAcceptorTest(A, at(spec.syn), at(spec.plane), D, hs, spec.params, slop);
    case "phi-psi": {
      let b1 = spec.b1;
      let b2 = spec.b2;
      if (b1 === null) [b1 = null, b2 = null] = graph.adj[a]!;
      const others = b1 === null ? [] : graph.adj[b1]!.filter((j) => j !== a).map(at);
      return phiPsiAcceptorTest(
        A,
        b1 === null ? null : at(b1),
        b2 === null ? null : at(b2),
        others,
        D,
        hs,
        spec.params,
        slop,
      );
    }
    case "theta-tau": {
      const refs = spec.partner === "LP" ? oppositeLonePairs(A, graph.adj[a]!.map(at)) : [at(spec.partner)];
      if (!thetaTauAcceptorTest(A, refs, D, hs, spec.params, slop)) return false;
      if (!spec.anilineTau) return true;
      // A21: every reference substituent seen down A→Car at least 37.5° from the donor (never relaxed).
      const x = graph.adj[a]![0]!;
      return tauTest(
        ANILINE_ACCEPTOR_TAU.tau,
        ANILINE_ACCEPTOR_TAU.symmetry,
        A,
        donorHydrogens(ctx, a),
        at(x),
        tauSubstituents(ctx, x, a),
        D,
      );
    }
    case "generic":
      return genericAcceptorTest(A, graph.adj[a]!.map(at), D, spec.params, slop);
  }
}

function donorTest(ctx: HBondContext, spec: DonorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph, slop } = ctx;
  const at = (j: number) => positionOf(atoms[j]!);
  const cls = acceptorClassOf(graph.types[a]!, atoms[a]!.element);
  if (cls === null) return false;
  const acc: AcceptorSite = { pos: at(a), neighbours: graph.adj[a]!.map(at), cls, isSulfur: atoms[a]!.element === "S" };
  const D = at(d);
  const heavy = () => graph.adj[d]!.map(at);
  switch (spec.test) {
    case "theta-tau":
      return thetaTauDonorTest(hs, D, acc, spec.params, slop);
    case "upsilon-tau": {
      const x = graph.adj[d]![0];
      return upsilonTauDonorTest(hs, D, heavy(), acc, spec.params, slop, () =>
        x === undefined ? [] : tauSubstituents(ctx, x, d),
      );
    }
    case "generic":
      return genericDonorTest(hs, D, heavy(), acc, spec.row, slop);
    case "water":
      return waterDonorTest(hs, D, acc, slop);
  }
}

export type PairVerdict =
  "accepted" | "no donor group" | "no acceptor group" | "shared metal" | "acceptor test" | "donor test" | "metal veto";

/** Whether donor d → acceptor a is an H-bond, and which stage rejects it (spec §1.1 step 5). */
export function evaluatePair(ctx: HBondContext, d: number, a: number): PairVerdict {
  const donor = ctx.donors[d];
  const acceptor = ctx.acceptors[a];
  if (!donor) return "no donor group";
  if (!acceptor) return "no acceptor group";
  // Two ligands of one metal sit ~2.8–3.3 Å apart because the metal holds them there, not because a hydrogen bridges
  // them; the spec's 45° veto misses such pairs when the donor is a little off the metal's side (docs/hbonds.md).
  if (ctx.coordinatedBy[d]!.some((m) => ctx.coordinatedBy[a]!.includes(m))) return "shared metal";
  const hs = donorHydrogens(ctx, d);
  if (!acceptorTest(ctx, acceptor, d, hs, a)) return "acceptor test";
  if (!donorTest(ctx, donor, d, hs, a)) return "donor test";
  const metals = ctx.metalsOf[a]!.map((m) => positionOf(ctx.atoms[m]!));
  if (metalVeto(positionOf(ctx.atoms[a]!), positionOf(ctx.atoms[d]!), metals)) return "metal veto";
  return "accepted";
}
