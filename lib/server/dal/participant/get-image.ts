import "server-only";
import { db } from "@/lib/server/db";

/** An item image if this participant was assigned its item; null otherwise (no probing other items' images). */
export async function findImageForParticipant(imageId: string, participantId: string) {
  return db.itemImage.findFirst({
    where: { id: imageId, item: { assignments: { some: { participantId } } } },
    select: { data: true, mimeType: true, sha256: true },
  });
}

/** Any item image (staff preview). */
export async function findImageForStaff(imageId: string) {
  return db.itemImage.findUnique({ where: { id: imageId }, select: { data: true, mimeType: true, sha256: true } });
}
