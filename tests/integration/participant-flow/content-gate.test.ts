import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { findImageForParticipant } from "@/lib/server/participant-flow/get-image";
import { findSceneForParticipant } from "@/lib/server/participant-flow/get-scene";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { submitAnswer } from "@/lib/server/participant-flow/record-response";
import { markQuestionShown } from "@/lib/server/participant-flow/question-clock";
import type { StudyConfigInput } from "@/lib/study-config";
import { createTranslationStudy } from "../../helpers/study-fixtures";

const optionSvg = (letter: string) =>
  Buffer.from(`<svg xmlns='http://www.w3.org/2000/svg'><text>${letter}</text></svg>`);

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = {
  viewportWidth: 1280,
  viewportHeight: 800,
  devicePixelRatio: 2,
  userAgent: "test",
  pointer: "fine" as const,
};

/** A six-atom ring: enough for Scene3dSchema. */
const SCENE = {
  elements: ["C", "C", "C", "C", "C", "O"],
  positions: Array.from({ length: 6 }, (_, k) => [Math.cos(k), Math.sin(k), 0]).flat(),
  roles: ["l", "l", "l", "l", "l", "l"],
  residueIndex: [0, 0, 0, 0, 0, 0],
  bonds: [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0],
  camera: { distanceA: 30, fovDeg: 30 },
};

/**
 * A consented participant of a new two-question study; every item also gets four MC-style option images (positions
 * 1–4) and, for the interactive condition, a 3D scene. Returns the current and the next assignment with their images.
 */
async function startParticipant(config: StudyConfigInput, pid: string) {
  const { study, items } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, ...config } });
  for (const item of items) {
    await db.item.update({ where: { id: item.id }, data: { payload: { pdbId: "1abc", scene3d: SCENE } } });
    await db.itemImage.createMany({
      data: ["A", "B", "C", "D"].map((letter, k) => ({
        itemId: item.id,
        position: k + 1,
        caption: `Option ${letter}`,
        mimeType: "image/svg+xml",
        sha256: createHash("sha256").update(optionSvg(letter)).digest("hex"),
        data: optionSvg(letter),
      })),
    });
  }
  const entered = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  await recordConsent(entered.participantId, true, DEVICE);
  const participantId = entered.participantId;
  const session = (await getParticipantSession(participantId))!;
  const [current, next] = await db.assignment.findMany({
    where: { participantId },
    orderBy: { position: "asc" },
    select: {
      id: true,
      item: { select: { images: { select: { id: true, position: true }, orderBy: { position: "asc" } } } },
    },
  });
  expect(session.current!.assignmentId).toBe(current!.id);
  const imagesOf = (a: typeof current) => a!.item.images.map((i) => i.id);
  return {
    participantId,
    session,
    current: { id: current!.id, images: imagesOf(current) },
    next: { id: next!.id, images: imagesOf(next) },
  };
}

async function imageOutcome(imageId: string, participantId: string): Promise<"served" | "refused" | "not found"> {
  const found = await findImageForParticipant(imageId, participantId);
  return found === null ? "not found" : "refused" in found ? "refused" : "served";
}

async function sceneOutcome(assignmentId: string, participantId: string): Promise<"served" | "refused" | "not found"> {
  const found = await findSceneForParticipant(assignmentId, participantId);
  return found === null ? "not found" : "refused" in found ? "refused" : "served";
}

async function allImages(ids: string[], participantId: string) {
  return Promise.all(ids.map((id) => imageOutcome(id, participantId)));
}

describe("timed study: a question's content is served only once it is current and reported shown", () => {
  it("images and option images: refused before /shown and for the next question, served after; answered ones stay served", async () => {
    const {
      participantId: pid,
      session,
      current,
      next,
    } = await startParticipant({ timeLimitSec: 60 }, "gate-timed-images");
    expect(current.images).toHaveLength(5);
    // Served to the participant (session, instructions), not yet shown: the question image and its option images are refused.
    expect(await allImages(current.images, pid)).toEqual(Array(5).fill("refused"));
    expect(await allImages(next.images, pid)).toEqual(Array(5).fill("refused"));
    // Nothing to fetch ahead in a timed study.
    expect(session.upcomingImageIds).toEqual([]);

    const shown = await markQuestionShown(pid, current.id);
    expect(await allImages(current.images, pid)).toEqual(Array(5).fill("served"));
    // The next question stays closed although the current one is shown.
    expect(await allImages(next.images, pid)).toEqual(Array(5).fill("refused"));
    // A reload reports it again: the first stamp stays.
    expect((await markQuestionShown(pid, current.id)).shownAt).toBe(shown.shownAt);

    const stored = await submitAnswer({
      participantId: pid,
      assignmentId: current.id,
      rawAnswer: "move x 1",
      idempotencyKey: `ans-${pid}`,
    });
    expect(stored.update.upcomingImageIds).toEqual([]);
    expect(stored.update.current!.assignmentId).toBe(next.id);
    // Answered: still served (practice feedback shows them). The next one is now current but not shown yet.
    expect(await allImages(current.images, pid)).toEqual(Array(5).fill("served"));
    expect(await allImages(next.images, pid)).toEqual(Array(5).fill("refused"));
    await markQuestionShown(pid, next.id);
    expect(await allImages(next.images, pid)).toEqual(Array(5).fill("served"));
  });

  it("/shown for a question that is not the current one is refused and stamps nothing", async () => {
    const { participantId: pid, current, next } = await startParticipant({ timeLimitSec: 60 }, "gate-timed-shown-next");
    await expect(markQuestionShown(pid, next.id)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(
      (await db.assignment.findUniqueOrThrow({ where: { id: next.id }, select: { questionShownAt: true } }))
        .questionShownAt,
    ).toBeNull();
    expect(await allImages(next.images, pid)).toEqual(Array(5).fill("refused"));
    await expect(markQuestionShown(pid, current.id)).resolves.toMatchObject({ assignmentId: current.id });
  });

  it("an answer to a question that is not the current one is refused and stores nothing (its clock never started)", async () => {
    const {
      participantId: pid,
      current,
      next,
    } = await startParticipant({ timeLimitSec: 60 }, "gate-timed-answer-next");
    // A later question has no shown stamp and so no deadline: answering it early must not store an untimed answer.
    await expect(
      submitAnswer({ participantId: pid, assignmentId: next.id, rawAnswer: "move x 1", idempotencyKey: `next-${pid}` }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.response.count({ where: { assignmentId: next.id } })).toBe(0);
    // The current one is answered as usual; then the next one is current and can be answered.
    await markQuestionShown(pid, current.id);
    await expect(
      submitAnswer({
        participantId: pid,
        assignmentId: current.id,
        rawAnswer: "move x 1",
        idempotencyKey: `cur-${pid}`,
      }),
    ).resolves.toMatchObject({ result: { status: "stored" } });
    await markQuestionShown(pid, next.id);
    await expect(
      submitAnswer({
        participantId: pid,
        assignmentId: next.id,
        rawAnswer: "move x 1",
        idempotencyKey: `next2-${pid}`,
      }),
    ).resolves.toMatchObject({ result: { status: "stored" } });
  });

  it("after a reload the session says the current question was already reported shown", async () => {
    const { participantId: pid, current } = await startParticipant({ timeLimitSec: 60 }, "gate-timed-resume");
    expect((await getParticipantSession(pid))!.current!.alreadyShown).toBe(false);
    await markQuestionShown(pid, current.id);
    expect((await getParticipantSession(pid))!.current).toMatchObject({ assignmentId: current.id, alreadyShown: true });
  });

  it("3D scene (interactive condition): refused before /shown and for the next question, served after", async () => {
    const {
      participantId: pid,
      current,
      next,
    } = await startParticipant({ timeLimitSec: 60, conditions: ["interactive"] }, "gate-timed-scene");
    expect(await sceneOutcome(current.id, pid)).toBe("refused");
    expect(await sceneOutcome(next.id, pid)).toBe("refused");
    await markQuestionShown(pid, current.id);
    expect(await sceneOutcome(current.id, pid)).toBe("served");
    expect(await sceneOutcome(next.id, pid)).toBe("refused");
  });

  it("untimed study: every assigned question's images and scene are served before /shown (prefetch), as before", async () => {
    const {
      participantId: pid,
      session,
      current,
      next,
    } = await startParticipant({ conditions: ["interactive"] }, "gate-untimed");
    expect(session.upcomingImageIds).toEqual(next.images);
    expect(await allImages([...current.images, ...next.images], pid)).toEqual(Array(10).fill("served"));
    expect(await sceneOutcome(current.id, pid)).toBe("served");
    expect(await sceneOutcome(next.id, pid)).toBe("served");
  });

  it("another participant's images and scene are not found, timed or not", async () => {
    const { participantId: owner, current } = await startParticipant(
      { timeLimitSec: 60, conditions: ["interactive"] },
      "gate-owner",
    );
    await markQuestionShown(owner, current.id);
    const { participantId: other } = await startParticipant({ timeLimitSec: 60 }, "gate-other");
    expect(await imageOutcome(current.images[0]!, other)).toBe("not found");
    expect(await sceneOutcome(current.id, other)).toBe("not found");
  });
});
