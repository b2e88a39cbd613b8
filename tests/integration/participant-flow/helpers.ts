import { db } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { TEST_DEVICE } from "../../helpers/study-fixtures";

/** Device metadata as a consenting browser sends it. */
export const DEVICE = TEST_DEVICE;

/** Opens a study link with Prolific's three parameters; the new (or resumed) participant's id. */
export async function join(slug: string, pid: string): Promise<string> {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid, STUDY_ID: "S1", SESSION_ID: `sess-${pid}` } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}

/** A participant who joined with a Prolific id and accepted consent. */
export async function started(slug: string, pid: string): Promise<string> {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  await recordConsent(entered.participantId, true, DEVICE);
  return entered.participantId;
}

/** The study's reserved slots, summed over its item counters. */
export async function reservedTotal(studyId: string): Promise<number> {
  const counters = await db.studyItemCounter.findMany({ where: { studyId }, select: { reserved: true } });
  return counters.reduce((sum, c) => sum + c.reserved, 0);
}
