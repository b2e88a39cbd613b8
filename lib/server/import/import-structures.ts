import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { sha256Hex, toCanonicalJson } from "@/lib/import/content-hash";
import {
  MAX_STRUCTURE_FILE_BYTES,
  findStructurePdbId,
  groupStructureFiles,
  structureFormatOf,
  type ComplexFiles,
} from "@/lib/import/structure-files";
import { parseStructure, type ParseError } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import type { Structure as ParsedStructure } from "@/lib/molecule/types";
import type { ReportEntry } from "@/lib/import/report";
import { FatalImportError, type ImportContext } from "./import-context";
import type { ImportDbClient } from "./item-writer";
import type { GenerateFromStructuresOptions, UsableComplex } from "./generate-from-structures";
import type { ItemWriter } from "./item-writer";
import { readSmallFile } from "./source-tree";

export interface StructureImportOptions {
  /** Ligand residue as RES:CHAIN:NUM for complexes without a ligand file; otherwise the largest ligand-like residue. */
  ligand?: string;
  /** Generate items from the structures (new and already stored ones) with the task engine. */
  generate?: GenerateFromStructuresOptions;
}

function parseErrorEntry(error: ParseError, file: string): ReportEntry {
  return {
    file,
    line: error.line,
    field: error.field ?? "structure",
    problem: error.column ? `column ${error.column}: ${error.reason}` : error.reason,
  };
}

async function readStructureText(ctx: ImportContext, file: string): Promise<string | ReportEntry> {
  try {
    return (await readSmallFile(ctx.tree, file, MAX_STRUCTURE_FILE_BYTES)).toString("utf8");
  } catch (e) {
    return { file, line: 0, field: "file", problem: (e as Error).message };
  }
}

/** Structure.contentHash: the files' bytes and the ligand choice, so re-importing the same complex adds nothing. */
export function computeStructureHash(input: {
  content: string;
  ligandText: string | null;
  ligandSpec: string | null;
}): string {
  return sha256Hex(
    toCanonicalJson({
      v: 1,
      content: sha256Hex(input.content),
      ligand: input.ligandText === null ? null : sha256Hex(input.ligandText),
      ligandSpec: input.ligandSpec,
    }),
  );
}

interface PlannedStructure {
  files: ComplexFiles;
  pdbId: string | null;
  format: string;
  content: string;
  ligandText: string | null;
  ligandSpec: string | null;
  ligandFile: { name: string; format: string; text: string } | null;
  contentHash: string;
  notes: string[];
}

async function planComplex(
  ctx: ImportContext,
  files: ComplexFiles,
  options: StructureImportOptions,
): Promise<PlannedStructure | ReportEntry[]> {
  const proteinText = await readStructureText(ctx, files.protein);
  if (typeof proteinText !== "string") return [proteinText];
  const protein = parseStructure(proteinText, files.protein);
  if (!protein.ok) return [parseErrorEntry(protein.error, files.protein)];

  let ligandStructure: ParsedStructure | undefined;
  let ligandText: string | null = null;
  if (files.ligand) {
    const text = await readStructureText(ctx, files.ligand);
    if (typeof text !== "string") return [text];
    const parsed = parseStructure(text, files.ligand);
    if (!parsed.ok) return [parseErrorEntry(parsed.error, files.ligand)];
    ligandStructure = parsed.structure;
    ligandText = text;
  }
  // Cutting the pocket now proves the complex is usable for generation (ligand found, near the protein).
  const ligandSpec = files.ligand ? null : (options.ligand ?? null);
  const prepared = prepareComplex(protein.structure, {
    ...(ligandStructure ? { ligandStructure } : {}),
    ...(ligandSpec ? { ligandId: ligandSpec } : {}),
  });
  if (!prepared.ok)
    return [{ file: files.ligand ?? files.protein, line: 0, field: "ligand", problem: prepared.reason }];
  if (prepared.complex.pocketResidues.length === 0) {
    return [
      {
        file: files.ligand ?? files.protein,
        line: 0,
        field: "ligand",
        problem: `no protein residue within ${prepared.complex.cutoffA} Å of the ligand: wrong protein/ligand pairing?`,
      },
    ];
  }
  const notes = [...protein.structure.notes, ...(ligandStructure?.notes ?? []), ...prepared.complex.notes];
  return {
    files,
    pdbId: findStructurePdbId(files.protein, proteinText),
    format: protein.structure.format,
    content: proteinText,
    ligandText,
    ligandSpec,
    ligandFile:
      files.ligand && ligandText !== null
        ? { name: files.ligand, format: structureFormatOf(files.ligand) ?? "unknown", text: ligandText }
        : null,
    contentHash: computeStructureHash({ content: proteinText, ligandText, ligandSpec }),
    notes,
  };
}

/**
 * PDB/SDF/MOL2 files into the Structure table: grouped into complexes (structure-files.ts), parsed
 * with lib/molecule, the ligand chosen (its own file, the named residue, or the largest
 * ligand-like residue), pocket checked, content-hashed. Items are generated from structures by the
 * task engine, not here.
 */
export async function importStructures(
  ctx: ImportContext & { writer: ItemWriter },
  client: ImportDbClient,
  options: StructureImportOptions & { dryRun: boolean },
): Promise<void> {
  const { tree, report, progress } = ctx;
  const usable: UsableComplex[] = [];
  const keep = (planned: PlannedStructure, structureId: string | null) =>
    usable.push({
      protein: planned.files.protein,
      ligand: planned.files.ligand,
      proteinText: planned.content,
      ligandText: planned.ligandText,
      pdbId: planned.pdbId,
      ligandSpec: planned.ligandSpec,
      structureId,
    });
  const { complexes, skipped } = groupStructureFiles(tree.files.map((f) => f.path));
  for (const s of skipped) report.skip(s);
  if (complexes.length === 0)
    throw new FatalImportError(
      tree.label,
      0,
      "files",
      "no PDB structure file found (.pdb or .ent; ligands as .sdf/.mol2 beside them)",
    );
  progress.setTotal(tree.files.filter((f) => structureFormatOf(f.path)).reduce((n, f) => n + f.size, 0));
  const seen = new Map<string, string>();
  for (const files of complexes) {
    progress.setPhase("reading", files.protein);
    report.recordRead();
    const planned = await planComplex(ctx, files, options);
    if (Array.isArray(planned)) {
      for (const s of planned) report.skip(s);
      continue;
    }
    for (const u of files.unused)
      report.note({
        file: u,
        line: 0,
        field: "structure",
        problem: `not used: ${files.protein} was paired with ${files.ligand ?? "its own HETATM ligand"}`,
      });
    for (const n of planned.notes) report.note({ file: files.protein, line: 0, field: "structure", problem: n });
    const earlier = seen.get(planned.contentHash);
    if (earlier) {
      report.duplicate({
        file: files.protein,
        line: 0,
        field: "structure",
        problem: `same files and ligand as ${earlier}`,
      });
      continue;
    }
    seen.set(planned.contentHash, files.protein);
    const stored = await client.structure.findUnique({
      where: { contentHash: planned.contentHash },
      select: { id: true },
    });
    if (stored) {
      report.duplicate({
        file: files.protein,
        line: 0,
        field: "structure",
        problem: `already in the database (structure ${stored.id})`,
      });
      keep(planned, stored.id);
      continue;
    }
    if (!planned.pdbId)
      report.warn({
        file: files.protein,
        line: 0,
        field: "pdbId",
        problem: "no PDB id in the HEADER record or the file name; stored without one",
      });
    let structureId: string | null = null;
    if (!options.dryRun) {
      const created = await client.structure.create({
        data: {
          pdbId: planned.pdbId,
          sourceFile: files.protein,
          format: planned.format,
          contentHash: planned.contentHash,
          content: planned.content,
          ligandSpec: planned.ligandSpec,
          ligandFile: (planned.ligandFile ?? undefined) as Prisma.InputJsonValue | undefined,
        },
        select: { id: true },
      });
      structureId = created.id;
    }
    report.imported("structures");
    keep(planned, structureId);
  }
  if (options.generate && !report.hasErrors) {
    progress.setPhase("reading", "generating items");
    // Loaded on demand: generation pulls in the renderer (a native PNG encoder) that plain imports never need.
    const { generateFromStructures } = await import("./generate-from-structures");
    await generateFromStructures(usable, options.generate, { report, writer: ctx.writer, label: tree.label });
  }
}
