/**
 * The studies a results scope pools, in creation order: the study itself (scope "study"), or every study on its
 * (frozen, so identical) pool version (scope "pool"); no rows for an unknown study. $1 = study id, $2 = scope.
 * Plain SQL so the responses export's child process (node-postgres, no Prisma) resolves a scope the same way.
 */
export const SCOPE_STUDIES_SQL = `
  SELECT s.id, s.slug, s.name FROM "Study" s
  WHERE s.id = $1 OR ($2::text = 'pool' AND s."poolVersionId" = (SELECT t."poolVersionId" FROM "Study" t WHERE t.id = $1))
  ORDER BY s."createdAt", s.id`;

export interface ScopeStudyRow {
  id: string;
  slug: string;
  name: string;
}
