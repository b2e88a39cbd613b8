// The study readers that share select fragments (lib/server/dal/studies/study-select.ts) read the same columns: the
// studies list and the results index agree on every list field, the study page and the results scope on the heading.
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { createPool } from "@/lib/server/dal/pools/create-pool";
import { createStudy } from "@/lib/server/dal/studies/save-study";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { listResultStudies } from "@/lib/server/dal/results/list-result-studies";
import { resolveResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { createStaffUser, createTaggedItems, uniqueSuffix } from "./admin-fixtures";

afterAll(async () => {
  await disconnectDb();
});

describe("study select fragments", () => {
  it("lists and headings read the same study the same way", async () => {
    const admin = await createStaffUser();
    const tag = `select-${uniqueSuffix()}`;
    await createTaggedItems(tag, { translation: 3 });
    const pool = await createPool({
      input: { mode: "filter", name: `pool ${tag}`, filter: { tag } },
      actorId: admin.id,
    });
    const study = await createStudy({
      input: {
        name: `Selects ${tag}`,
        slug: tag,
        poolVersionId: pool.poolVersionId,
        config: { tasks: ["translation"], itemsPerTask: 3, cohortTag: "c1" },
      },
      actorId: admin.id,
    });
    await db.participant.create({
      data: { studyId: study.id, externalId: "S-1", condition: "static", orderSeed: "1" },
    });
    const viewer = { id: admin.id, role: "admin" as const };
    const version = await db.poolVersion.findUniqueOrThrow({
      where: { id: pool.poolVersionId },
      select: { version: true, poolId: true, pool: { select: { name: true } } },
    });

    const listed = (await listStudies(viewer)).find((s) => s.id === study.id);
    const indexed = (await listResultStudies(viewer)).find((s) => s.id === study.id);
    const listFields = {
      id: study.id,
      slug: tag,
      name: `Selects ${tag}`,
      status: "draft",
      poolName: version.pool.name,
      poolVersion: version.version,
      participants: 1,
    };
    expect(listed).toMatchObject({ ...listFields, completed: 0 });
    expect(indexed).toMatchObject({
      ...listFields,
      poolVersionId: pool.poolVersionId,
      mainResponses: 0,
      lastResponseAt: null,
    });

    const detail = await getStudy(study.id);
    const scope = await resolveResultsScope(study.id);
    const heading = { id: study.id, slug: tag, name: `Selects ${tag}`, status: "draft" };
    expect(detail).toMatchObject({
      ...heading,
      poolVersion: {
        id: pool.poolVersionId,
        version: version.version,
        poolId: version.poolId,
        poolName: version.pool.name,
        itemCount: 3,
        frozen: false,
      },
      participantCount: 1,
    });
    expect(scope.study).toEqual({ ...heading, cohortTag: detail.cohortTag });
    expect(scope.poolVersion).toEqual({
      id: pool.poolVersionId,
      poolId: version.poolId,
      poolName: version.pool.name,
      version: version.version,
    });
  });
});
