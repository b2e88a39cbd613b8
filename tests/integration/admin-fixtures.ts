import { randomBytes } from "node:crypto";
import { db } from "@/lib/server/db";
import type { StaffRole } from "@/types/staff-role";

/** A short random suffix so rows from different tests (and runs) never collide in the shared test database. */
export function uniqueSuffix(): string {
  return randomBytes(4).toString("hex");
}

export async function createStaffUser(role: StaffRole = "admin") {
  return db.user.create({ data: { email: `${role}-${uniqueSuffix()}@example.org`, passwordHash: "x", role } });
}

/**
 * Creates items tagged `tag` (so a filter on the tag sees only these), `counts[task]` of each task. Content hashes are
 * `<tag>:<task>:<nn>`, so their sort order (which the stratified draw uses) is the same on every run.
 */
export async function createTaggedItems(
  tag: string,
  counts: Record<string, number>,
  status: "active" | "excluded" | "flagged" = "active",
) {
  const ids: Record<string, string[]> = {};
  for (const [taskId, n] of Object.entries(counts)) {
    ids[taskId] = [];
    for (let i = 0; i < n; i++) {
      const item = await db.item.create({
        data: {
          source: "generated",
          taskId,
          taskVersion: 1,
          question: `Question ${i} of ${taskId} (${tag}, ${status})`,
          payload: { pdbId: "1abc" },
          pdbId: "1abc",
          externalId: `${tag}-${taskId}-${status}-${i}`,
          contentHash: `${tag}:${taskId}:${status}:${String(i).padStart(2, "0")}`,
          status,
          tags: [tag],
          answerKey: { create: { gold: { axis: "x", distanceA: 3 }, canonical: `GOLD-${tag}-${i}` } },
        },
        select: { id: true },
      });
      ids[taskId]!.push(item.id);
    }
  }
  return ids;
}
