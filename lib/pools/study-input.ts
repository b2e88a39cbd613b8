import { z } from "zod";
import { StudyConfigSchema } from "@/lib/study-config";
import { STUDY_SLUG_PATTERN, STUDY_SLUG_RULE } from "@/lib/study-slug";

/** Slugs appear in participant links (`/s/<slug>`): short, lower-case, URL-safe, not guessable from other studies. */
export const StudySlugSchema = z.string().trim().toLowerCase().regex(STUDY_SLUG_PATTERN, `slug: ${STUDY_SLUG_RULE}`);

/** What the study form sends. `config` is validated by StudyConfigSchema on every write. */
export const StudyInputSchema = z.object({
  name: z.string().trim().min(1, "give the study a name").max(200),
  slug: StudySlugSchema,
  poolVersionId: z.string().trim().min(1, "choose a pool version"),
  config: StudyConfigSchema,
});
export type StudyInput = z.output<typeof StudyInputSchema>;

/** A slug suggestion from a name ("Expert pilot 2" → "expert-pilot-2"). */
export function toSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
  return slug.length >= 3 ? slug : `study-${slug || "new"}`;
}

/** The Prolific "study URL" to paste into Prolific: the participant link with Prolific's placeholders. */
export function toProlificUrl(
  participantLink: string,
  params: { participantParam: string; studyParam: string; sessionParam: string },
): string {
  // Prolific substitutes {{%PROLIFIC_PID%}} etc. itself; the names on the left are the study's configured parameters.
  const query = [
    `${encodeURIComponent(params.participantParam)}={{%PROLIFIC_PID%}}`,
    `${encodeURIComponent(params.studyParam)}={{%STUDY_ID%}}`,
    `${encodeURIComponent(params.sessionParam)}={{%SESSION_ID%}}`,
  ].join("&");
  return `${participantLink}?${query}`;
}

/** An example of the link a Prolific participant actually opens (made-up ids), for checking the parameters by eye. */
export function toExampleParticipantUrl(
  participantLink: string,
  params: { participantParam: string; studyParam: string; sessionParam: string },
): string {
  const url = new URL(participantLink);
  url.searchParams.set(params.participantParam, "5f1a2b3c4d5e6f7a8b9c0d1e");
  url.searchParams.set(params.studyParam, "64aa00bb11cc22dd33ee44ff");
  url.searchParams.set(params.sessionParam, "example-session-1");
  return url.toString();
}
