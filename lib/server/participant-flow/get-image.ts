import "server-only";
import { db } from "@/lib/server/db";
import {
  checkQuestionContent,
  GATE_SELECT,
  type ContentRefusal,
} from "@/lib/server/participant-flow/question-content-gate";

export interface ImageBytes {
  data: Uint8Array;
  mimeType: string;
  sha256: string;
}

/** What a participant is given: a link to the stored picture (lib/server/image-url.ts), never the bytes. */
export type ImageRef = Omit<ImageBytes, "data">;

/**
 * An item image's content hash and type if this participant was assigned its item; null otherwise (no probing other items' images). In a timed
 * study, a refusal until the item is the participant's current question and has been reported shown
 * (question-content-gate.ts); option images of MC items are item images and go through the same gate.
 */
export async function findImageForParticipant(
  imageId: string,
  participantId: string,
): Promise<ImageRef | ContentRefusal | null> {
  const image = await db.itemImage.findFirst({
    where: { id: imageId, item: { assignments: { some: { participantId } } } },
    select: {
      mimeType: true,
      sha256: true,
      item: { select: { assignments: { where: { participantId }, select: GATE_SELECT } } },
    },
  });
  const assignment = image?.item.assignments[0];
  if (!image || !assignment) return null;
  const refusal = await checkQuestionContent(participantId, assignment);
  if (refusal) return refusal;
  return { mimeType: image.mimeType, sha256: image.sha256 };
}

/** Any item image (staff preview). */
export async function findImageForStaff(imageId: string): Promise<ImageBytes | null> {
  return db.itemImage.findUnique({ where: { id: imageId }, select: { data: true, mimeType: true, sha256: true } });
}
