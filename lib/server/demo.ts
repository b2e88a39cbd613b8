import "server-only";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { db } from "@/lib/server/db";
import { createPool } from "@/lib/server/dal/pools/create-pool";
import { freezePoolVersion } from "@/lib/server/dal/pools/freeze-pool-version";
import { createStudy } from "@/lib/server/dal/studies/save-study";
import { openStudy } from "@/lib/server/dal/studies/set-study-status";
import { runImport } from "@/lib/server/import/run-import";
import { StudyConfigSchema } from "@/lib/study-config";

export const DEMO_STUDY_SLUG = "demo";
const DEMO_TAG = "demo";
/** Demo items: a few per task from the shipped CC0 structures (prisma/demo/structures), fixed seed. */
const DEMO_PER_TASK = 4;
const DEMO_SEED = "demo-v1";

export interface EnsureDemoResult {
  slug: string;
  created: boolean;
  items: number;
}

/**
 * Creates the demo study once: generates items from the shipped structures with the task engine (SVG images, which
 * render in seconds), imports the bundle like any other, builds a frozen pool of them and opens a study that
 * counterbalances the static and interactive conditions.
 */
export async function ensureDemoStudy(options: {
  actorId: string;
  workDir?: string;
  log?: (line: string) => void;
}): Promise<EnsureDemoResult> {
  const log = options.log ?? (() => {});
  const existing = await db.study.findUnique({ where: { slug: DEMO_STUDY_SLUG }, select: { id: true } });
  if (existing) return { slug: DEMO_STUDY_SLUG, created: false, items: 0 };

  const out = path.resolve(options.workDir ?? ".data/demo-bundle");
  fs.rmSync(out, { recursive: true, force: true });
  log("Generating the demo items from prisma/demo/structures …");
  const generated = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/generate.mts",
      "--structures",
      "prisma/demo/structures",
      "--tasks",
      "all",
      "--per-task",
      String(DEMO_PER_TASK),
      "--seed",
      DEMO_SEED,
      "--format",
      "svg",
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  if (generated.status !== 0) throw new Error(`demo generation failed:\n${generated.stderr || generated.stdout}`);

  // Our own renderer's SVG, just written: kept as SVG (rasterising its 146 images took 27 s on the loaded test machine).
  const imported = await runImport({
    inputPath: out,
    kind: "bundle",
    sourceName: "demo bundle",
    actorId: options.actorId,
    ownSvg: true,
  });
  if (imported.status !== "succeeded")
    throw new Error(`demo import ${imported.status}: ${JSON.stringify(imported.report).slice(0, 500)}`);
  await db.item.updateMany({ where: { importBatchId: imported.batchId }, data: { tags: [DEMO_TAG] } });
  const demoItems = await db.item.findMany({
    where: { tags: { has: DEMO_TAG } },
    select: { id: true, taskId: true },
    orderBy: { externalId: "asc" },
  });

  const pool = await createPool({
    input: {
      mode: "filter",
      name: "Demo pool",
      description: "Items generated from the shipped demo structures.",
      filter: { tag: DEMO_TAG },
    },
    actorId: options.actorId,
  });
  await freezePoolVersion({ poolVersionId: pool.poolVersionId, actorId: options.actorId });
  // One translation item is the practice question (with feedback); it is kept out of the main block.
  const practice = demoItems.find((i) => i.taskId === "translation");
  const config = StudyConfigSchema.parse({
    itemsPerTask: 1,
    answersPerItem: 20,
    conditions: ["static", "interactive"],
    practiceItemIds: practice ? [practice.id] : [],
    prolific: { completionCode: "DEMO-DONE" },
    cohortTag: "demo",
  });
  const study = await createStudy({
    input: { name: "MiSI-Bench demo study", slug: DEMO_STUDY_SLUG, poolVersionId: pool.poolVersionId, config },
    actorId: options.actorId,
  });
  await openStudy({ studyId: study.id, actorId: options.actorId });
  fs.rmSync(out, { recursive: true, force: true });
  return { slug: DEMO_STUDY_SLUG, created: true, items: demoItems.length };
}
