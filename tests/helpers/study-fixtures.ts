import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { StudyConfigSchema, type StudyConfigInput } from "@/lib/study-config";

const TINY_SVG = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>");

/** A translation item (T1) with its answer key; gold `move <axis> <d>`. */
export async function createTranslationItem(
  tag: string,
  gold: { axis: "x" | "y"; distanceA: number } = { axis: "x", distanceA: 3 },
) {
  return db.item.create({
    data: {
      source: "generated",
      taskId: "translation",
      taskVersion: 1,
      question: `Which translation turns image 1 into image 4? (${tag})`,
      payload: { pdbId: "1abc" },
      contentHash: `test-${tag}-${randomBytes(6).toString("hex")}`,
      answerKey: { create: { gold, canonical: `move ${gold.axis} ${gold.distanceA}` } },
      images: {
        create: [
          {
            position: 0,
            caption: "Image 1: front view",
            mimeType: "image/svg+xml",
            sha256: createHash("sha256").update(TINY_SVG).digest("hex"),
            data: TINY_SVG,
          },
        ],
      },
    },
    select: { id: true },
  });
}

/** An open study over `itemCount` translation items with the given config overrides. */
export async function createTranslationStudy(options: {
  itemCount: number;
  config?: StudyConfigInput;
  status?: "open" | "closed" | "draft";
}) {
  const tag = randomBytes(4).toString("hex");
  const items = [];
  for (let i = 0; i < options.itemCount; i++)
    items.push(await createTranslationItem(`${tag}-${i}`, { axis: i % 2 ? "y" : "x", distanceA: (i % 4) + 1 }));
  const pool = await db.pool.create({
    data: {
      name: `pool ${tag}`,
      versions: {
        create: {
          version: 1,
          recipe: {},
          frozenAt: new Date(),
          items: { create: items.map((it) => ({ itemId: it.id, taskId: "translation" })) },
        },
      },
    },
    select: { versions: { select: { id: true } } },
  });
  const config = StudyConfigSchema.parse({ tasks: ["translation"], ...options.config });
  const study = await db.study.create({
    data: {
      slug: `study-${tag}`,
      name: `Study ${tag}`,
      status: options.status ?? "open",
      poolVersionId: pool.versions[0]!.id,
      config,
    },
    select: { id: true, slug: true },
  });
  return { study, items, config };
}

/**
 * Makes an assignment its participant's current question (moved before every other position; positions only order).
 * Only the current question can be answered, so a test that answers e.g. the attention check first puts it there.
 */
export async function makeCurrentQuestion(assignmentId: string) {
  await db.$executeRaw`
    UPDATE "Assignment" a SET position = (SELECT min(b.position) - 1 FROM "Assignment" b WHERE b."participantId" = a."participantId")
    WHERE a.id = ${assignmentId}`;
}

/** Device metadata as a consenting browser sends it. */
export const TEST_DEVICE = {
  viewportWidth: 1280,
  viewportHeight: 800,
  devicePixelRatio: 2,
  userAgent: "test",
  pointer: "fine" as const,
};

/** Opens a study link with a Prolific id; the new (or resumed) participant's id. */
export async function joinStudy(slug: string, pid: string): Promise<string> {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}
