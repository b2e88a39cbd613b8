/**
 * The one rule for what a study slug is. The study form accepts only such slugs (StudySlugSchema,
 * lib/pools/study-input.ts), and every participant route under /s/<slug>/ (the custom server's join route, Next's join
 * route, session and status pages) refuses a path segment that, once percent-decoded, is not one: a dot segment
 * (".", "..", "%2e%2e") or anything else no study can have is answered 404 there, never redirected, so a redirect built
 * from a slug can never leave /s/<slug>/.
 */
export const STUDY_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,62}[a-z0-9])$/;

/** The rule in words, for form errors. */
export const STUDY_SLUG_RULE = "3–64 lower-case letters, digits or hyphens, not starting or ending with a hyphen";

/** Whether `slug` (already percent-decoded, as stored) is a study slug. Exact: no trimming or case folding. */
export function isStudySlug(slug: string): boolean {
  return STUDY_SLUG_PATTERN.test(slug);
}

/**
 * Whether a request path (raw, as sent: percent-encoded) lies under /s/ with a first segment that, decoded, is not a
 * study slug: `/s/%2e%2e`, `/s/./session`, `/s/%2E%2E/status`, `/s//x`. Paths outside /s/ are not its business (false).
 */
export function hasInvalidStudySlug(pathname: string): boolean {
  if (!pathname.startsWith("/s/")) return false;
  const end = pathname.indexOf("/", 3);
  const raw = end === -1 ? pathname.slice(3) : pathname.slice(3, end);
  try {
    return !isStudySlug(decodeURIComponent(raw));
  } catch {
    return true;
  }
}
