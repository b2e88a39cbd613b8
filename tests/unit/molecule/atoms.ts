import type { Atom } from "@/lib/molecule/types";

/** A hand-placed atom for geometry tests (defaults: protein ATOM record, chain A). */
export function makeAtom(fields: Partial<Atom> & Pick<Atom, "name" | "element" | "x" | "y" | "z">): Atom {
  return {
    serial: 1,
    resName: "GLY",
    chain: "A",
    resSeq: 1,
    iCode: "",
    altLoc: "",
    occupancy: 1,
    tempFactor: 0,
    hetero: false,
    formalCharge: 0,
    ...fields,
  };
}
