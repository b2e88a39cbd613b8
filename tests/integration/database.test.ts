import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db, dbDriver, disconnectDb } from "@/lib/server/db";
import { findPublicItem } from "@/lib/server/participant-flow/get-public-item";
import { getHealth } from "@/lib/server/health";

afterAll(async () => {
  await disconnectDb();
});

const GOLD_MARKER = "roll y 75 GOLDMARKER";

async function createItemWithKey(suffix: string) {
  return db.item.create({
    data: {
      source: "generated",
      taskId: "rotation",
      taskVersion: 1,
      question: `Which command turns view 1 into view 4? (${suffix})`,
      payload: { views: ["front", "left", "top", "front-after"] },
      contentHash: `hash-${suffix}`,
      answerKey: { create: { gold: { axis: "y", value: 75 }, canonical: GOLD_MARKER } },
      images: {
        create: [
          { position: 0, caption: "front view", mimeType: "image/svg+xml", sha256: "0", data: Buffer.from("<svg/>") },
        ],
      },
    },
  });
}

describe("database", () => {
  it("uses the real PostgreSQL server, not PGlite", async () => {
    expect(dbDriver).toBe("postgres");
    const [row] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
    expect(row?.version).toMatch(/^PostgreSQL \d+/);
  });

  it("reads back a row written through the Prisma client", async () => {
    const created = await db.user.create({
      data: { email: "reader@example.org", passwordHash: "x", role: "researcher" },
    });
    const read = await db.user.findUniqueOrThrow({ where: { email: "reader@example.org" } });
    expect(read).toMatchObject({ id: created.id, role: "researcher" });
    const [raw] = await db.$queryRaw<Array<{ email: string }>>`SELECT email FROM "User" WHERE id = ${created.id}`;
    expect(raw?.email).toBe("reader@example.org");
  });

  it("enforces the idempotency key's unique constraint on responses", async () => {
    const item = await createItemWithKey("idem");
    const pool = await db.pool.create({
      data: {
        name: "p",
        versions: { create: { version: 1, recipe: {}, items: { create: { itemId: item.id, taskId: "rotation" } } } },
      },
      include: { versions: true },
    });
    const study = await db.study.create({
      data: { slug: "idem", name: "s", poolVersionId: pool.versions[0]!.id, config: {} },
    });
    const participant = await db.participant.create({
      data: { studyId: study.id, externalId: "P1", condition: "static", orderSeed: "1" },
    });
    const a1 = await db.assignment.create({ data: { participantId: participant.id, itemId: item.id, position: 0 } });
    const base = {
      participantId: participant.id,
      studyId: study.id,
      itemId: item.id,
      taskId: "rotation",
      taskVersion: 1,
      condition: "static",
      rawAnswer: "roll y 75",
      canonicalAnswer: "roll y 75",
      exact: 1,
      partial: 1,
    };
    await db.response.create({ data: { ...base, assignmentId: a1.id, idempotencyKey: "k-1" } });
    await expect(
      db.response.create({ data: { ...base, assignmentId: a1.id, idempotencyKey: "k-2" } }),
    ).rejects.toThrow();
    await expect(db.response.count({ where: { participantId: participant.id } })).resolves.toBe(1);
  });

  it("reports health: reachable, all migrations applied", async () => {
    const health = await getHealth();
    const shipped = fs
      .readdirSync(path.resolve("prisma/migrations"), { withFileTypes: true })
      .filter((d) => d.isDirectory());
    expect(health).toMatchObject({ status: "ok", database: { reachable: true, driver: "postgres" } });
    expect(health.migrations).toMatchObject({ expected: shipped.length, applied: shipped.length, pending: [] });
  });
});

describe("answer key isolation", () => {
  it("participant-facing item data never contains the gold answer", async () => {
    const item = await createItemWithKey("isolation");
    const dto = await findPublicItem(item.id);
    expect(dto?.question).toContain("isolation");
    expect(JSON.stringify(dto)).not.toContain("GOLDMARKER");
    expect(Object.keys(dto ?? {}).sort()).toEqual(["id", "images", "payload", "question", "taskId", "taskVersion"]);
    // The key is stored for this item, so the test above is not vacuous.
    await expect(
      db.answerKey.findUnique({ where: { itemId: item.id }, select: { canonical: true } }),
    ).resolves.toMatchObject({ canonical: GOLD_MARKER });
  });

  it("no participant-facing data module references the answer-key table", () => {
    const dir = path.resolve("lib/server/participant-flow");
    const sources = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && /\.tsx?$/.test(f.name));
    expect(sources.length).toBeGreaterThan(0);
    for (const file of sources) {
      const text = fs.readFileSync(path.join(file.parentPath, file.name), "utf8");
      expect(text, `${file.name} must not touch the answer key`).not.toMatch(/answerKey|AnswerKey|scoring\//);
    }
    // The flow's SQL: only the statements that grade an answer read the key, and none returns it to a route's response
    // (record-response.ts keeps what they read on the server).
    const statements = fs.readdirSync(path.join(dir, "statements")).filter((f) => f.endsWith(".sql"));
    const readingKey = statements.filter((f) =>
      /"AnswerKey"/.test(fs.readFileSync(path.join(dir, "statements", f), "utf8")),
    );
    expect(readingKey.sort()).toEqual(["grading-context.sql", "submit-read.sql", "submit-write.sql"]);
  });
});
