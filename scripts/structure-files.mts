// Helpers shared by the H-bond report scripts (plip-agreement.mts, chimerax-criteria-report.mts).
import fs from "node:fs";
import path from "node:path";
import { formatParseError, parseStructure } from "@/lib/molecule/parse";
import type { Atom, Structure } from "@/lib/molecule/types";

/** A structure file parsed by its extension; a parse error throws with the parser's message. */
export function loadStructureFile(file: string): Structure {
  const r = parseStructure(fs.readFileSync(file, "utf8"), path.basename(file));
  if (!r.ok) throw new Error(formatParseError(r.error));
  return r.structure;
}

/** "ARG 45 NH2 A": how the reports name a protein atom. */
export const proteinAtomKey = (a: Pick<Atom, "chain" | "resSeq" | "iCode" | "resName" | "name">) =>
  `${a.resName} ${a.resSeq}${a.iCode} ${a.name} ${a.chain}`;
