import { afterAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db, disconnectDb } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { createPool } from "@/lib/server/dal/pools/create-pool";
import { freezePoolVersion } from "@/lib/server/dal/pools/freeze-pool-version";
import { createStudy, updateStudy } from "@/lib/server/dal/studies/save-study";
import { closeStudy, openStudy } from "@/lib/server/dal/studies/set-study-status";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { getStudyMonitor } from "@/lib/server/dal/studies/get-study-monitor";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { createStaffUser, createTaggedItems, uniqueSuffix } from "./admin-fixtures";

afterAll(async () => {
  await disconnectDb();
});

async function setUpPool(counts: Record<string, number>) {
  const admin = await createStaffUser();
  const tag = `study-${uniqueSuffix()}`;
  const items = await createTaggedItems(tag, counts);
  const pool = await createPool({ input: { mode: "filter", name: `pool ${tag}`, filter: { tag } }, actorId: admin.id });
  return { admin, tag, items, poolVersionId: pool.poolVersionId };
}

async function issuesOf(promise: Promise<unknown>): Promise<Array<{ path: string; message: string }>> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ZodError) return err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    if (err instanceof AppError) return err.details as Array<{ path: string; message: string }>;
    throw err;
  }
  throw new Error("expected the call to fail");
}

describe("study configuration validation", () => {
  it("reports each invalid field with its path", async () => {
    const { admin, poolVersionId } = await setUpPool({ translation: 3 });
    const base = { name: "Validation", slug: `val-${uniqueSuffix()}`, poolVersionId };

    const zodIssues = await issuesOf(
      createStudy({
        input: { ...base, config: { itemsPerTask: 0, conditions: ["static", "static"], tasks: ["T1"] } },
        actorId: admin.id,
      }),
    );
    const paths = zodIssues.map((i) => i.path);
    expect(paths).toContain("config.itemsPerTask");
    expect(paths).toContain("config.tasks.0");
    const badSlug = await issuesOf(
      createStudy({ input: { ...base, slug: "No Spaces!", config: {} }, actorId: admin.id }),
    );
    expect(badSlug.map((i) => i.path)).toEqual(["slug"]);
    const badUrl = await issuesOf(
      createStudy({ input: { ...base, config: { prolific: { completionUrl: "not a url" } } }, actorId: admin.id }),
    );
    expect(badUrl.map((i) => i.path)).toEqual(["config.prolific.completionUrl"]);

    // Cross-table checks: unknown practice item, missing pool version.
    const refIssues = await issuesOf(
      createStudy({
        input: { ...base, poolVersionId: "missing-version", config: { practiceItemIds: ["ghost-item"] } },
        actorId: admin.id,
      }),
    );
    expect(refIssues).toEqual([
      { path: "poolVersionId", message: "no such pool version" },
      { path: "config.practiceItemIds", message: "unknown item id(s): ghost-item" },
    ]);

    // Duplicate slug.
    const fits = { tasks: ["translation"], itemsPerTask: 3 };
    const ok = await createStudy({ input: { ...base, config: fits }, actorId: admin.id });
    // Duplicate slug: the 409 the unique index gives a lost race (toErrorResponse), not a 422.
    const dup = await createStudy({ input: { ...base, config: fits }, actorId: admin.id }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(dup).toBeInstanceOf(AppError);
    expect((dup as AppError).status).toBe(409);
    expect((dup as AppError).details).toEqual([{ path: "slug", message: "already used (slug must be unique)" }]);

    // Nothing invalid was stored; the valid study has its defaults filled in and the cohort tag mirrored.
    expect(await db.study.count({ where: { slug: base.slug } })).toBe(1);
    const stored = await getStudy(ok.id);
    expect(stored.config).toMatchObject({
      itemsPerTask: 3,
      answersPerItem: 3,
      conditions: ["static"],
      maxParticipants: null,
    });
    expect(stored.status).toBe("draft");
  });
});

describe("settings against the pool, checked before saving", () => {
  it("refuses what the pool cannot satisfy, on the field concerned, naming tasks as people read them; nothing is stored", async () => {
    const { admin, items, poolVersionId } = await setUpPool({ translation: 6, rotation: 4 });
    const slug = `fit-${uniqueSuffix()}`;
    const practice = items.translation!.slice(0, 2);
    const input = (config: Record<string, unknown>) => ({ name: "Fit", slug, poolVersionId, config });

    const tooMany = await issuesOf(
      createStudy({
        input: input({ tasks: ["translation", "rotation", "docking"], itemsPerTask: 5, practiceItemIds: practice }),
        actorId: admin.id,
      }),
    );
    expect(tooMany).toEqual([
      {
        path: "config.itemsPerTask",
        message:
          "T1 Translation: the pool has 4 active item(s) (2 more are practice or attention items, kept out of the main block), but each participant needs 5 different ones. Lower items per task to 4 or add items.",
      },
      {
        path: "config.itemsPerTask",
        message:
          "T2 Rotation: the pool has 4 active item(s), but each participant needs 5 different ones. Lower items per task to 4 or add items.",
      },
      {
        path: "config.tasks",
        message:
          "T7 Ligand docking: the pool version has no active item of this task. Remove the task or add items to the pool.",
      },
    ]);

    // k × items: rotation 4 items × k 3 = 12 answers serve 12 / 2 = 6 of the 10 participants the cap allows; translation 6 × 3 = 18 serve 9.
    const quota = await issuesOf(
      createStudy({
        input: input({ tasks: ["translation", "rotation"], itemsPerTask: 2, answersPerItem: 3, maxParticipants: 10 }),
        actorId: admin.id,
      }),
    );
    expect(quota).toEqual([
      {
        path: "config.maxParticipants",
        message:
          "T1 Translation: 6 items × k 3 = 18 answers, less than the expected demand of 10 participants × 2 = 20; only about 9 participants can be served. Lower the cap to 9, raise answers per item to 4, or add items.",
      },
      {
        path: "config.maxParticipants",
        message:
          "T2 Rotation: 4 items × k 3 = 12 answers, less than the expected demand of 10 participants × 2 = 20; only about 6 participants can be served. Lower the cap to 6, raise answers per item to 5, or add items.",
      },
    ]);
    expect(await db.study.count({ where: { slug } })).toBe(0);

    // The same rule on update: a saved study cannot be edited into an unsatisfiable one.
    const saved = await createStudy({
      input: input({ tasks: ["translation", "rotation"], itemsPerTask: 2, answersPerItem: 5, maxParticipants: 10 }),
      actorId: admin.id,
    });
    const edit = await issuesOf(
      updateStudy({ studyId: saved.id, input: input({ tasks: ["rotation"], itemsPerTask: 6 }), actorId: admin.id }),
    );
    expect(edit.map((p) => p.message)).toEqual([
      expect.stringMatching(/^T2 Rotation: the pool has 4 active item\(s\), but each participant needs 6/),
    ]);
    expect((await getStudy(saved.id)).config).toMatchObject({ itemsPerTask: 2, answersPerItem: 5 });
  });
});

describe("opening and closing", () => {
  it("opens only a frozen pool version with enough items per task, then locks the configuration", async () => {
    const { admin, items, poolVersionId } = await setUpPool({ translation: 6, rotation: 4 });
    const practice = items.translation![0]!;
    const config = {
      tasks: ["translation", "rotation"],
      itemsPerTask: 1,
      answersPerItem: 2,
      maxParticipants: 4,
      practiceItemIds: [practice],
      cohortTag: "expert",
    };
    const study = await createStudy({
      input: { name: "Open me", slug: `open-${uniqueSuffix()}`, poolVersionId, config },
      actorId: admin.id,
    });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).cohortTag).toBe("expert");
    await updateStudy({
      studyId: study.id,
      input: { name: "Open me", slug: study.slug, poolVersionId, config: { ...config, itemsPerTask: 2 } },
      actorId: admin.id,
    });

    await expect(openStudy({ studyId: study.id, actorId: admin.id })).rejects.toThrow(/not frozen/);
    await freezePoolVersion({ poolVersionId, actorId: admin.id });
    // Items excluded after saving: rotation keeps 1 < 2; translation has 6 − 1 practice item = 5.
    const rotation = items.rotation!;
    await db.item.updateMany({ where: { id: { in: rotation.slice(0, 3) } }, data: { status: "excluded" } });
    const notEnough = openStudy({ studyId: study.id, actorId: admin.id });
    await expect(notEnough).rejects.toThrow(
      /T2 Rotation: the pool has 1 active item\(s\), but each participant needs 2/,
    );
    await expect(notEnough).rejects.not.toThrow(/Translation/);

    await db.item.updateMany({ where: { id: { in: rotation.slice(0, 2) } }, data: { status: "active" } });
    const analyses = async () =>
      (
        await db.$queryRaw<
          Array<{ n: number }>
        >`SELECT analyze_count::int AS n FROM pg_stat_user_tables WHERE relname = 'StudyItemCounter'`
      )[0]!.n;
    const analysedBefore = await analyses();
    const opened = await openStudy({ studyId: study.id, actorId: admin.id });
    // The new counters' statistics are refreshed (lib/server/table-statistics.ts), not left to autovacuum.
    expect(await analyses()).toBeGreaterThan(analysedBefore);
    expect(opened.status).toBe("open");
    // Supply: rotation 3 × k 2 = 6 < demand 4 × 2 = 8 → a warning when opening (saving would have refused it); translation 5 × 2 = 10 ≥ 8.
    expect(opened.warnings).toEqual([
      expect.stringMatching(
        /^T2 Rotation: 3 items × k 2 = 6 answers, less than the expected demand of 4 participants × 2 = 8/,
      ),
    ]);

    // Counters for main-block items only (the practice item is not counted).
    const counters = await db.studyItemCounter.findMany({ where: { studyId: study.id } });
    expect(counters).toHaveLength(8);
    expect(counters.map((c) => c.itemId)).not.toContain(practice);
    // Each with its own pick rank: the items' order is shuffled when the study opens.
    expect(new Set(counters.map((c) => c.rank)).size).toBe(8);

    const editWhileOpen = updateStudy({
      studyId: study.id,
      input: { name: "x", slug: study.slug, poolVersionId, config },
      actorId: admin.id,
    });
    await expect(editWhileOpen).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(openStudy({ studyId: study.id, actorId: admin.id })).rejects.toMatchObject({ code: "CONFLICT" });

    const closed = await closeStudy({ studyId: study.id, actorId: admin.id });
    expect(closed.status).toBe("closed");
    const row = await db.study.findUniqueOrThrow({ where: { id: study.id } });
    expect(row.openedAt).not.toBeNull();
    expect(row.closedAt).not.toBeNull();
    const actions = (
      await db.auditLog.findMany({ where: { entityType: "study", entityId: study.id }, orderBy: { id: "asc" } })
    ).map((a) => a.action);
    expect(actions).toEqual(["study.create", "study.update", "study.open", "study.close"]);
  });

  it("refuses to edit a study someone has joined, even when closed", async () => {
    const { admin, poolVersionId } = await setUpPool({ docking: 5 });
    const input = { name: "Joined", slug: `joined-${uniqueSuffix()}`, poolVersionId, config: { tasks: ["docking"] } };
    const study = await createStudy({ input, actorId: admin.id });
    await db.participant.create({
      data: { studyId: study.id, externalId: "P-1", condition: "static", orderSeed: "1" },
    });
    await expect(updateStudy({ studyId: study.id, input, actorId: admin.id })).rejects.toThrow(
      /1 participant\(s\) already joined/,
    );
    expect((await getStudy(study.id)).editable).toBe(false);
  });
});

describe("live monitor", () => {
  it("counts participants by status and answers per task against quota, with median response times", async () => {
    const { admin, items, poolVersionId } = await setUpPool({ translation: 5, zooming: 5 });
    const config = {
      tasks: ["translation", "zooming"],
      itemsPerTask: 3,
      answersPerItem: 2,
      conditions: ["static", "interactive"],
    };
    const study = await createStudy({
      input: { name: "Monitor", slug: `mon-${uniqueSuffix()}`, poolVersionId, config },
      actorId: admin.id,
    });
    await freezePoolVersion({ poolVersionId, actorId: admin.id });
    await openStudy({ studyId: study.id, actorId: admin.id });

    const people = await Promise.all(
      (["completed", "active", "screened_out"] as const).map((status, i) =>
        db.participant.create({
          data: {
            studyId: study.id,
            externalId: `M-${i}`,
            condition: i === 1 ? "interactive" : "static",
            orderSeed: String(i),
            status,
          },
        }),
      ),
    );
    // Three translation answers: server RT 1000, 3000, none; client RT 900, 2000, 5000.
    const rts: Array<[number | null, number]> = [
      [1000, 900],
      [3000, 2000],
      [null, 5000],
    ];
    for (const [i, [server, client]] of rts.entries()) {
      const participant = people[i]!;
      const itemId = items.translation![i]!;
      const assignment = await db.assignment.create({
        data: { participantId: participant.id, itemId, position: 0, status: "answered" },
      });
      await db.response.create({
        data: {
          assignmentId: assignment.id,
          participantId: participant.id,
          studyId: study.id,
          itemId,
          taskId: "translation",
          taskVersion: 1,
          condition: participant.condition,
          rawAnswer: "move x 3",
          canonicalAnswer: "move x 3",
          exact: 1,
          partial: 1,
          rtServerMs: server,
          rtClientMs: client,
          idempotencyKey: `mon-${study.id}-${i}`,
        },
      });
      await db.studyItemCounter.update({
        where: { studyId_itemId: { studyId: study.id, itemId } },
        data: { answered: { increment: 1 }, reserved: { increment: 1 } },
      });
    }
    // The first item reaches k = 2 answers.
    await db.studyItemCounter.update({
      where: { studyId_itemId: { studyId: study.id, itemId: items.translation![0]! } },
      data: { answered: 2, reserved: 3 },
    });

    const m = await getStudyMonitor(study.id);
    expect(m.participants.started).toBe(3);
    expect(m.participants.byStatus).toEqual({ consenting: 0, active: 1, completed: 1, screened_out: 1, declined: 0 });
    expect(m.participants.byCondition).toEqual({ static: 2, interactive: 1 });
    const translation = m.tasks.find((t) => t.taskId === "translation")!;
    // Median of COALESCE(server, client) = median(1000, 3000, 5000) = 3000; server only (1000, 3000) → 2000;
    // client (900, 2000, 5000) → 2000.
    expect(translation).toEqual({
      taskId: "translation",
      items: 5,
      quota: 10,
      answers: 3,
      reservedOpen: 1,
      itemsAtQuota: 1,
      medianRtMs: 3000,
      medianRtServerMs: 2000,
      medianRtClientMs: 2000,
    });
    expect(m.tasks.find((t) => t.taskId === "zooming")).toMatchObject({
      items: 5,
      quota: 10,
      answers: 0,
      medianRtMs: null,
    });
    expect(m.totals).toMatchObject({ answers: 3, quota: 20, medianRtMs: 3000 });
    expect(m.lastResponseAt).not.toBeNull();

    const listed = (await listStudies({ id: "", role: "admin" })).find((s) => s.id === study.id);
    expect(listed).toMatchObject({ participants: 3, completed: 1, status: "open" });
  });
});
