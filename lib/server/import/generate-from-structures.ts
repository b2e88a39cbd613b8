import "server-only";
import { createHash } from "node:crypto";
import {
  type GeneratorComplex,
  type ImageFormat,
  generateItems,
  loadGeneratorComplex,
  renderItemImages,
} from "@/lib/generate";
import type { ItemPlan } from "@/lib/import/item-plan";
import type { ImportReportBuilder } from "@/lib/import/report";
import type { TaskId } from "@/lib/tasks/types";
import type { ItemWriter } from "./item-writer";
import { prepareItem } from "./item-writer";

/** What to generate from imported structures (the same knobs as `npm run generate`). */
export interface GenerateFromStructuresOptions {
  tasks: TaskId[];
  perTask: number;
  seed: string;
  /** Image edge in pixels (square), as `npm run generate --size`. */
  sizePx?: number;
  format?: ImageFormat;
}

/** The defaults of `npm run generate`. */
export const DEFAULT_GENERATED_IMAGE_PX = 1024;

export interface UsableComplex {
  protein: string;
  ligand: string | null;
  proteinText: string;
  ligandText: string | null;
  pdbId: string | null;
  /** Ligand residue named by the user (RES:CHAIN:NUM) for a PDB without a ligand file. */
  ligandSpec: string | null;
  /** The Structure row (new or already stored), null in a dry run for new ones. */
  structureId: string | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Items from the imported structures with the task engine (lib/generate), written like imported
 * items: source "generated", linked to their Structure, duplicates by content hash. Rendering
 * happens here, one item at a time, so memory holds one item's images.
 */
export async function generateFromStructures(
  complexes: readonly UsableComplex[],
  options: GenerateFromStructuresOptions,
  ctx: { report: ImportReportBuilder; writer: ItemWriter; label: string },
): Promise<void> {
  const { report, writer } = ctx;
  const loaded: GeneratorComplex[] = [];
  const structureOf = new Map<string, string | null>();
  for (const c of complexes) {
    if (!c.pdbId) {
      report.warn({
        file: c.protein,
        line: 0,
        field: "generation",
        problem: "not used for items: no PDB id (questions name complexes by it)",
      });
      continue;
    }
    const result = loadGeneratorComplex({
      pdbId: c.pdbId,
      file: c.protein,
      text: c.proteinText,
      sha256: sha256(c.proteinText),
      ...(c.ligand && c.ligandText !== null
        ? { ligandFile: c.ligand, ligandText: c.ligandText, ligandSha256: sha256(c.ligandText) }
        : {}),
      ...(c.ligandSpec ? { prepareOptions: { ligandId: c.ligandSpec } } : {}),
    });
    if (!result.ok) {
      report.warn({ file: c.protein, line: 0, field: "generation", problem: `not used for items: ${result.reason}` });
      continue;
    }
    loaded.push(result.complex);
    structureOf.set(c.protein, c.structureId);
  }
  if (loaded.length === 0) {
    report.error({
      file: ctx.label,
      line: 0,
      field: "generation",
      problem: "no complex can be used to generate items",
    });
    return;
  }
  const size = options.sizePx ?? DEFAULT_GENERATED_IMAGE_PX;
  const generated = generateItems({
    complexes: loaded,
    tasks: options.tasks,
    perTask: options.perTask,
    seed: options.seed,
    renderSettings: { widthPx: size, heightPx: size },
  });
  if (!generated.ok) {
    report.error({ file: ctx.label, line: 0, field: "generation", problem: generated.error });
    return;
  }
  for (const r of generated.reports) {
    for (const x of r.ineligible)
      report.note({ file: x.file, line: 0, field: `generation.${r.taskId}`, problem: `not used: ${x.reason}` });
    for (const f of r.failures)
      report.warn({
        file: ctx.label,
        line: 0,
        field: `generation.${r.taskId}`,
        problem: `item ${f.index + 1} not made: ${f.reason}`,
      });
    for (const n of r.notes) report.note({ file: ctx.label, line: 0, field: `generation.${r.taskId}`, problem: n });
  }
  const format = options.format ?? "png";
  for (const [i, item] of generated.items.entries()) {
    const images = renderItemImages(item, format).map((img) => {
      const data = Buffer.from(img.bytes);
      return {
        caption: img.caption,
        mimeType: img.mimeType,
        sha256: createHash("sha256").update(data).digest("hex"),
        data,
      };
    });
    const { renderSettings, ...provenance } = item.provenance;
    const plan: ItemPlan = {
      source: "generated",
      externalId: null,
      taskId: item.taskId,
      taskVersion: item.taskVersion,
      split: "test",
      question: item.question,
      payload: item.fields,
      pdbId: item.pdbId,
      gold: item.gold,
      canonical: item.canonicalAnswer,
      distractors: item.distractors ?? null,
      images: [],
      status: "active",
      statusReason: null,
      provenance: { ...provenance, generatedId: item.id },
      generatorVersion: item.provenance.generatorVersion,
      seed: item.provenance.seed,
      renderSettings: renderSettings as unknown as Record<string, unknown>,
      structureId: structureOf.get(item.provenance.structure.file) ?? null,
      file: `${ctx.label} (generated)`,
      line: i + 1,
    };
    report.recordRead();
    await writer.add(prepareItem(plan, images));
  }
  await writer.flush();
  report.note({
    file: ctx.label,
    line: 0,
    field: "generation",
    problem: `generated ${generated.items.length} item(s) from ${loaded.length} complex(es), seed '${options.seed}'`,
  });
}
