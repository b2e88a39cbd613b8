import { createHash, randomBytes } from "node:crypto";
import pg from "pg";

/** A marker stored ONLY in answer keys (gold JSON and distractor notes): if it ever reaches the browser, the key leaked. */
export const GOLD_SENTINEL = `GOLDLEAK${randomBytes(4).toString("hex")}`;

export function e2eDatabaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url)
    throw new Error("E2E_DATABASE_URL is not set: run the e2e suite through `npm test` (scripts/test-all.mts).");
  return url;
}

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const TINY_SVG = (label: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#000"/><circle cx="${20 + label.length}" cy="32" r="8" fill="#BF99F2"/></svg>`,
  );

/**
 * An open study of `count` translation items whose answer keys carry GOLD_SENTINEL (extra gold key and distractor
 * note; task grammars ignore both). Returns the slug and the canonical gold per item id.
 */
export async function createSentinelStudy(options: {
  count: number;
  config?: Record<string, unknown>;
  scene3d?: unknown;
}): Promise<{ slug: string; golds: Map<string, string> }> {
  const tag = randomBytes(4).toString("hex");
  return withClient(async (c) => {
    await c.query("BEGIN");
    const golds = new Map<string, string>();
    const poolId = `pool_${tag}`;
    const versionId = `pv_${tag}`;
    await c.query(`INSERT INTO "Pool"(id, name) VALUES ($1, $2)`, [poolId, `e2e pool ${tag}`]);
    await c.query(
      `INSERT INTO "PoolVersion"(id, "poolId", version, recipe, "frozenAt") VALUES ($1, $2, 1, '{}', now())`,
      [versionId, poolId],
    );
    for (let i = 0; i < options.count; i++) {
      const itemId = `it_${tag}_${i}`;
      const axis = i % 2 ? "y" : "x";
      const d = (i % 4) + 1;
      const canonical = `move ${axis} ${d}`;
      golds.set(itemId, canonical);
      await c.query(
        `INSERT INTO "Item"(id, source, "taskId", "taskVersion", question, payload, "contentHash", "updatedAt")
         VALUES ($1, 'generated', 'translation', 1, $2, $3, $4, now())`,
        [
          itemId,
          `The images show the complex 1abc (item ${i + 1}). Which translation turns image 1 into image 4?`,
          JSON.stringify({ pdbId: "1abc", ...(options.scene3d ? { scene3d: options.scene3d } : {}) }),
          `e2e-${tag}-${i}`,
        ],
      );
      await c.query(`INSERT INTO "AnswerKey"("itemId", gold, canonical, distractors) VALUES ($1, $2, $3, $4)`, [
        itemId,
        JSON.stringify({ axis, distanceA: d, sentinel: GOLD_SENTINEL }),
        canonical,
        JSON.stringify({ note: GOLD_SENTINEL }),
      ]);
      for (let p = 0; p < 4; p++) {
        const data = TINY_SVG(`${i}-${p}`);
        await c.query(
          `INSERT INTO "ItemImage"(id, "itemId", position, caption, "mimeType", sha256, data) VALUES ($1, $2, $3, $4, 'image/svg+xml', $6, $5)`,
          [
            `img${tag}${i}${p}${randomBytes(4).toString("hex")}`,
            itemId,
            p,
            ["Image 1: front view", "Image 2: left view", "Image 3: top view", "Image 4: front view after the move"][p],
            data,
            createHash("sha256").update(data).digest("hex"),
          ],
        );
      }
      await c.query(`INSERT INTO "PoolItem"("poolVersionId", "itemId", "taskId") VALUES ($1, $2, 'translation')`, [
        versionId,
        itemId,
      ]);
    }
    const slug = `e2e-${tag}`;
    const config = {
      tasks: ["translation"],
      itemsPerTask: options.count,
      answersPerItem: 5,
      conditions: ["static"],
      interactive: {},
      practiceItemIds: [],
      attentionItemIds: [],
      attentionPolicy: "flag",
      attentionMaxFailures: 0,
      timeLimitSec: null,
      assignmentTimeoutMin: 60,
      maxParticipants: null,
      consentText: "E2E consent text.",
      declineMessage: "You declined.",
      prolific: {
        participantParam: "PROLIFIC_PID",
        studyParam: "STUDY_ID",
        sessionParam: "SESSION_ID",
        completionCode: "C0DE42",
        completionUrl: "https://example.org/done?cc=C0DE42",
      },
      cohortTag: "crowd",
      ...options.config,
    };
    await c.query(
      `INSERT INTO "Study"(id, slug, name, status, "poolVersionId", config) VALUES ($1, $2, $3, 'open', $4, $5)`,
      [`st_${tag}`, slug, `E2E study ${tag}`, versionId, JSON.stringify(config)],
    );
    await c.query("COMMIT");
    return { slug, golds };
  });
}

export async function countResponses(slug: string, externalId: string): Promise<number> {
  return withClient(async (c) => {
    const r = await c.query(
      `SELECT count(*)::int AS n FROM "Response" r JOIN "Participant" p ON p.id = r."participantId" JOIN "Study" s ON s.id = p."studyId" WHERE s.slug = $1 AND p."externalId" = $2`,
      [slug, externalId],
    );
    return r.rows[0].n as number;
  });
}

/** The id of the study with this slug (for staff pages addressed by id). */
export async function studyIdOf(slug: string): Promise<string> {
  return withClient(
    async (c) => (await c.query(`SELECT id FROM "Study" WHERE slug = $1`, [slug])).rows[0].id as string,
  );
}

/** The stored interaction log of a participant's responses (camera path etc.). */
export async function interactionLogs(slug: string, externalId: string): Promise<unknown[]> {
  return withClient(async (c) => {
    const r = await c.query(
      `SELECT r."interactionLog" AS log FROM "Response" r JOIN "Participant" p ON p.id = r."participantId" JOIN "Study" s ON s.id = p."studyId" WHERE s.slug = $1 AND p."externalId" = $2 ORDER BY r."submittedAt"`,
      [slug, externalId],
    );
    return r.rows.map((row) => row.log);
  });
}

/** A small benzene-like ring plus a few "pocket" atoms, in the front-view frame (Å). */
export function tinyScene3d() {
  const elements: string[] = [];
  const positions: number[] = [];
  const roles: Array<"p" | "l"> = [];
  const residueIndex: number[] = [];
  const bonds: number[] = [];
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3;
    elements.push(k === 0 ? "O" : "C");
    positions.push(1.4 * Math.cos(a), 1.4 * Math.sin(a), 0);
    roles.push("l");
    residueIndex.push(0);
    bonds.push(k, (k + 1) % 6);
  }
  for (let k = 0; k < 8; k++) {
    elements.push(k % 3 === 0 ? "N" : "C");
    positions.push(-6 + 1.5 * k, 4 + (k % 2), -2);
    roles.push("p");
    residueIndex.push(Math.floor(k / 3));
    if (k > 0) bonds.push(5 + k, 6 + k);
  }
  return { elements, positions, roles, residueIndex, bonds, camera: { distanceA: 40, fovDeg: 30 } };
}

/**
 * A new open study over the seeded demo study's pool (all nine tasks, one item each, the demo's practice item) in one
 * condition, with the default consent text (its duration is filled in from the study's length).
 */
export async function createStudyFromDemoPool(
  condition: "static" | "interactive",
  extra: Record<string, unknown> = {},
): Promise<{ slug: string }> {
  const tag = randomBytes(4).toString("hex");
  return withClient(async (c) => {
    const demo = await c.query(`SELECT "poolVersionId", config FROM "Study" WHERE slug = 'demo'`);
    if (!demo.rows[0]) throw new Error("the demo study is not seeded");
    const { poolVersionId, config: demoConfig } = demo.rows[0] as {
      poolVersionId: string;
      config: { practiceItemIds: string[] };
    };
    const slug = `ux-${condition}-${tag}`;
    const config = {
      itemsPerTask: 1,
      answersPerItem: 1000,
      conditions: [condition],
      practiceItemIds: demoConfig.practiceItemIds,
      prolific: { completionCode: "UX-DONE" },
      cohortTag: "e2e",
      ...extra,
    };
    await c.query(
      `INSERT INTO "Study"(id, slug, name, status, "poolVersionId", config) VALUES ($1, $2, $3, 'open', $4, $5)`,
      [`st_${tag}`, slug, `UX ${condition} ${tag}`, poolVersionId, JSON.stringify(config)],
    );
    return { slug };
  });
}
