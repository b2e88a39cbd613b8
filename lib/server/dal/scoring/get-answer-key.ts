import "server-only";
import { db } from "@/lib/server/db";

/** The gold answer of an item, for server-side scoring and admin views only. Never pass the result to a participant. */
export async function findAnswerKey(itemId: string) {
  return db.answerKey.findUnique({ where: { itemId }, select: { gold: true, canonical: true } });
}
