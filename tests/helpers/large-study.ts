import { db } from "@/lib/server/db";
import { createTranslationStudy } from "./study-fixtures";

/**
 * An open translation study with `participants` × `itemCount` answered main-phase responses, written by SQL
 * generate_series (200,000 responses in seconds, not through the app's per-answer path). Every third answer is wrong.
 */
export async function createLargeStudy(options: { participants: number; itemCount: number }) {
  const { study, items } = await createTranslationStudy({
    itemCount: options.itemCount,
    config: { itemsPerTask: options.itemCount },
  });
  const itemIds = items.map((i) => i.id);
  await db.$executeRaw`
    INSERT INTO "Participant" (id, "studyId", "externalId", condition, status, "orderSeed", "consentAt", "completedAt")
    SELECT ${study.id} || '-p' || g, ${study.id}, 'large-' || g, 'static', 'completed', 'seed', now(), now()
    FROM generate_series(1, ${options.participants}::int) AS g`;
  await db.$executeRaw`
    INSERT INTO "Assignment" (id, "participantId", "itemId", position, phase, status)
    SELECT ${study.id} || '-p' || g || '-a' || i.n, ${study.id} || '-p' || g, i.id, i.n::int, 'main', 'answered'
    FROM generate_series(1, ${options.participants}::int) AS g CROSS JOIN unnest(${itemIds}::text[]) WITH ORDINALITY AS i(id, n)`;
  await db.$executeRaw`
    INSERT INTO "Response" (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition,
                            "rawAnswer", "canonicalAnswer", exact, partial, "submittedAt", "idempotencyKey")
    SELECT a.id || '-r', a.id, a."participantId", ${study.id}, a."itemId", 'translation', 1, 'main', 'static',
           'move x 3', 'move x 3', CASE WHEN (a.position + length(a."participantId")) % 3 = 0 THEN 0 ELSE 1 END,
           CASE WHEN (a.position + length(a."participantId")) % 3 = 0 THEN 0.5 ELSE 1 END,
           now() - (a.position || ' seconds')::interval, a.id || '-r'
    FROM "Assignment" a WHERE a."participantId" LIKE ${study.id} || '-p%'`;
  return { study, itemIds };
}
