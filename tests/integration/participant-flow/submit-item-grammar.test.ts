// The answer submit parses a T9 answer against the item's own chains, as the question screen does: the server never
// accepts a reading the screen refuses ('GLY 27 C O' where the item has chain C but no chain O; a chain it lacks).
import { createHash, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { submitAnswer } from "@/lib/server/participant-flow/record-response";
import { pocketLigandTask } from "@/lib/tasks/pocket-ligand";
import { StudyConfigSchema } from "@/lib/study-config";
import { DEVICE, join } from "./helpers";

const SVG = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>");

afterAll(async () => {
  await disconnectDb();
});

async function pocketStudy() {
  const tag = randomBytes(4).toString("hex");
  const key = pocketLigandTask.parseAnswer("GLY 27 O C, O5");
  if (!key.ok) throw new Error(key.error);
  const item = await db.item.create({
    data: {
      source: "generated",
      taskId: pocketLigandTask.id,
      taskVersion: pocketLigandTask.version,
      question: `Which hydrogen bonds? (${tag})`,
      payload: { pdbId: "1abc", chainIds: ["A", "C"] },
      contentHash: `t9-${tag}`,
      answerKey: { create: { gold: JSON.parse(JSON.stringify(key.value)) as object, canonical: key.canonical } },
      images: {
        create: [
          {
            position: 0,
            caption: "Image 1",
            mimeType: "image/svg+xml",
            sha256: createHash("sha256").update(SVG).digest("hex"),
            data: SVG,
          },
        ],
      },
    },
    select: { id: true },
  });
  const pool = await db.pool.create({
    data: {
      name: `t9 ${tag}`,
      versions: {
        create: {
          version: 1,
          recipe: {},
          frozenAt: new Date(),
          items: { create: [{ itemId: item.id, taskId: pocketLigandTask.id }] },
        },
      },
    },
    select: { versions: { select: { id: true } } },
  });
  const config = StudyConfigSchema.parse({
    tasks: [pocketLigandTask.id],
    itemsPerTask: 1,
    answersPerItem: 3,
    hbondPrimer: false,
  });
  const study = await db.study.create({
    data: { slug: `t9-${tag}`, name: `T9 ${tag}`, status: "open", poolVersionId: pool.versions[0]!.id, config },
    select: { slug: true },
  });
  const pid = await join(study.slug, `t9-${tag}`);
  await recordConsent(pid, true, DEVICE);
  return pid;
}

describe("T9 answers parsed against the item", () => {
  it("refuses 'GLY 27 C O' (atom C on a chain the item lacks) with the located message, stores nothing, then takes 'GLY 27 O C'", async () => {
    const pid = await pocketStudy();
    const current = (await getParticipantSession(pid))!.current!;
    expect(current.item.taskId).toBe(pocketLigandTask.id);
    const submit = (answer: string, n: number) =>
      submitAnswer({
        participantId: pid,
        assignmentId: current.assignmentId,
        rawAnswer: answer,
        idempotencyKey: `t9-${pid}-${n}`,
      });
    await expect(submit("GLY 27 C O, O5", 1)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringContaining("this item has no chain O (its chains: A, C)"),
    });
    await expect(submit("GLY 27 O Z, O5", 3)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringContaining("this item has no chain Z (its chains: A, C)"),
    });
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
    const stored = await submit("GLY 27 O C, O5", 2);
    expect(stored.result.status).toBe("stored");
    await expect(db.response.findFirstOrThrow({ where: { participantId: pid } })).resolves.toMatchObject({
      exact: 1,
      canonicalAnswer: "GLY 27 O C, O5",
    });
  });
});
