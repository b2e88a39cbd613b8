// Pocket–ligand hydrogen bonds of a complex, in the MiSI T9 answer format or as JSON.
//   npm run hbonds -- FILE [--ligand RES:CHAIN:NUM] [--ligand-file FILE] [--cutoff Å] [--include-sugars] [--all-groups] [--strict] [--json]
// FILE is a PDB complex (ligand named or chosen automatically) or a protein PDB with --ligand-file
// (SDF/MOL/MOL2/PDB, PDBbind-style split). Bonds name amino-acid residues only, as answer keys do;
// --all-groups adds bonds to other pocket groups (cofactors, sulfates, other hetero residues). Criteria: ChimeraX `hbonds`
// (lib/molecule/hbonds.ts) relaxed by 0.4 Å / 20° as in MiSI-Bench; --strict drops the relaxation (ChimeraX `relax false`).
// Bad input prints the error and exits with status 1.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { formatParseError, parseStructure } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { STRICT_HBOND_CRITERIA } from "@/lib/molecule/hbond-geometry";
import { findComplexHBonds, formatHBondsT9 } from "@/lib/molecule/hbonds";
import type { Structure } from "@/lib/molecule/types";

const USAGE =
  "usage: npm run hbonds -- FILE [--ligand RES:CHAIN:NUM] [--ligand-file FILE] [--cutoff 10] [--include-sugars] [--all-groups] [--strict] [--json]";

function fail(message: string): never {
  process.stderr.write(`hbonds: ${message}\n`);
  process.exit(1);
}

function readStructure(file: string): Structure {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    fail(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const result = parseStructure(text, path.basename(file));
  if (!result.ok) fail(formatParseError(result.error));
  return result.structure;
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        ligand: { type: "string" },
        "ligand-file": { type: "string" },
        cutoff: { type: "string" },
        "include-sugars": { type: "boolean" },
        "all-groups": { type: "boolean" },
        strict: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length !== 1) fail(`expected one structure file, got ${positionals.length}\n${USAGE}`);
  if (values.ligand && values["ligand-file"]) fail("give either --ligand or --ligand-file, not both");
  let cutoffA: number | undefined;
  if (values.cutoff !== undefined) {
    cutoffA = Number(values.cutoff);
    if (!Number.isFinite(cutoffA) || cutoffA <= 0)
      fail(`--cutoff must be a positive number of Å, got "${values.cutoff}"`);
  }

  const structure = readStructure(positionals[0]!);
  const ligandStructure = values["ligand-file"] ? readStructure(values["ligand-file"]) : undefined;
  const prepared = prepareComplex(structure, {
    ligandId: values.ligand,
    ligandStructure,
    pocketCutoffA: cutoffA,
    includeSugars: values["include-sugars"] ?? false,
  });
  if (!prepared.ok) fail(prepared.reason);
  const { complex } = prepared;
  const bonds = findComplexHBonds(
    complex,
    values.strict ? STRICT_HBOND_CRITERIA : undefined,
    values["all-groups"] ? "all-pocket-groups" : "amino-acids",
  );

  if (values.json) {
    const out = {
      file: structure.fileName,
      ligandFile: ligandStructure?.fileName ?? null,
      ligand: complex.ligand.id,
      ligandResidues: complex.ligand.residueIds,
      ligandSource: complex.ligand.source,
      pocketCutoffA: complex.cutoffA,
      pocketResidueCount: complex.pocketResidues.length,
      notes: [...structure.notes, ...(ligandStructure?.notes ?? []), ...complex.notes],
      answerT9: formatHBondsT9(bonds),
      hbonds: bonds,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  for (const note of [...structure.notes, ...(ligandStructure?.notes ?? []), ...complex.notes])
    process.stderr.write(`note: ${note}\n`);
  process.stdout.write(`${formatHBondsT9(bonds)}\n`);
}

main();
