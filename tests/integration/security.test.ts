import bcrypt from "bcryptjs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { ItemListQuerySchema } from "@/lib/pools/item-filter";
import { listItems } from "@/lib/server/dal/items/list-items";
import { setUserDisabled } from "@/lib/server/dal/users/set-user-disabled";
import { consumeRateLimit } from "@/lib/server/rate-limit";
import { admitParticipantEvent } from "@/lib/server/participant-flow/admission-limits";
import { AppError } from "@/lib/server/errors";
import { errorResponse } from "@/lib/server/route";
import {
  SIGNIN_ADDRESS_LIMIT,
  SIGNIN_BACKOFF_BASE_MS,
  SIGNIN_FREE_FAILURES,
  SignInThrottledError,
  verifySignIn,
} from "@/lib/server/sign-in";
import { PASSWORD_HASH_ROUNDS } from "@/lib/server/seed";
import { createTaggedItems, uniqueSuffix } from "./admin-fixtures";
import type { StaffRole } from "@/types/staff-role";

afterAll(async () => {
  await disconnectDb();
});

async function account(role: StaffRole = "researcher", password = "right-password-123") {
  const email = `${role}-${uniqueSuffix()}@example.org`;
  // Cost 4 keeps the test fast; the server's cost (PASSWORD_HASH_ROUNDS) is what the dummy hash matches.
  const user = await db.user.create({ data: { email, role, passwordHash: await bcrypt.hash(password, 4) } });
  return { ...user, password };
}

/** Runs a sign-in and says what happened: "ok", "wrong" (password checked, refused) or "throttled". */
async function attempt(
  email: string,
  password: string,
  address: string,
  now?: Date,
): Promise<"ok" | "wrong" | "throttled"> {
  try {
    return (await verifySignIn({ email, password, address, now })) ? "ok" : "wrong";
  } catch (err) {
    if (err instanceof SignInThrottledError) return "throttled";
    throw err;
  }
}

describe("sign-in limits", () => {
  it("31 parallel guesses get exactly SIGNIN_FREE_FAILURES password checks; the right password is then refused from that address too", async () => {
    const user = await account();
    const address = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const results = await Promise.all(Array.from({ length: 31 }, (_, i) => attempt(user.email, `wrong-${i}`, address)));
    expect(results.filter((r) => r === "wrong")).toHaveLength(SIGNIN_FREE_FAILURES);
    expect(results.filter((r) => r === "throttled")).toHaveLength(31 - SIGNIN_FREE_FAILURES);
    expect(await attempt(user.email, user.password, address)).toBe("throttled");
  });

  it("the attacker's failures lock neither the owner at her own address nor other accounts at the attacker's address", async () => {
    const victim = await account("admin");
    const other = await account();
    const attacker = `203.0.113.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < SIGNIN_FREE_FAILURES + 3; i++) await attempt(victim.email, `guess-${i}`, attacker);
    expect(await attempt(victim.email, victim.password, attacker)).toBe("throttled");
    expect(await attempt(victim.email, victim.password, "192.0.2.10")).toBe("ok");
    expect(await attempt(other.email, other.password, attacker)).toBe("ok");
  });

  it("the back-off doubles with each further failure and a success clears it", async () => {
    const user = await account();
    const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    for (let i = 0; i < SIGNIN_FREE_FAILURES; i++)
      expect(await attempt(user.email, "wrong", address, at(i))).toBe("wrong");
    const last = SIGNIN_FREE_FAILURES - 1;
    expect(await attempt(user.email, user.password, address, at(last + SIGNIN_BACKOFF_BASE_MS - 1000))).toBe(
      "throttled",
    );
    expect(await attempt(user.email, "wrong", address, at(last + SIGNIN_BACKOFF_BASE_MS + 1000))).toBe("wrong");
    const sixth = last + SIGNIN_BACKOFF_BASE_MS + 1000;
    expect(await attempt(user.email, user.password, address, at(sixth + 2 * SIGNIN_BACKOFF_BASE_MS - 1000))).toBe(
      "throttled",
    );
    expect(await attempt(user.email, user.password, address, at(sixth + 2 * SIGNIN_BACKOFF_BASE_MS + 1000))).toBe("ok");
    expect(await attempt(user.email, "wrong", address, at(sixth + 2 * SIGNIN_BACKOFF_BASE_MS + 2000))).toBe("wrong");
  });

  it(
    "one address spraying many accounts is stopped after SIGNIN_ADDRESS_LIMIT failures",
    { timeout: 120_000 },
    async () => {
      const address = `100.64.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const results: string[] = [];
      // Real accounts (cheap cost-4 hashes): unknown emails would each cost a cost-12 comparison.
      for (let i = 0; i < SIGNIN_ADDRESS_LIMIT + 3; i++)
        results.push(await attempt((await account()).email, "x", address));
      expect(results.filter((r) => r === "wrong")).toHaveLength(SIGNIN_ADDRESS_LIMIT);
      expect(results.slice(-3)).toEqual(["throttled", "throttled", "throttled"]);
    },
  );

  it("an unknown email costs the same bcrypt comparison as a known one (no enumeration by timing)", async () => {
    const user = await account();
    const compare = vi.spyOn(bcrypt, "compare");
    try {
      await attempt(`unknown-${uniqueSuffix()}@example.org`, "whatever", "192.0.2.77");
      await attempt(user.email, "wrong", "192.0.2.77");
      const hashFor = (password: string) =>
        compare.mock.calls.find((c) => c[0] === password)?.[1] as string | undefined;
      // The unknown email was compared against a hash of the server's cost, as a real account would be.
      expect(hashFor("whatever")).toBeDefined();
      expect(bcrypt.getRounds(hashFor("whatever")!)).toBe(PASSWORD_HASH_ROUNDS);
      expect(hashFor("wrong")).toBe(user.passwordHash);
    } finally {
      compare.mockRestore();
    }
  });
});

describe("rate limits are atomic (sign-in and participant limits)", () => {
  it("20 parallel events against a limit of 5: exactly 5 pass", async () => {
    const key = `test:${uniqueSuffix()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => consumeRateLimit([{ key, limit: 5, windowMs: 60_000 }])),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
  });

  it("events older than the window are not counted; a refusal says when the oldest one leaves the window", async () => {
    const rule = { key: `test:${uniqueSuffix()}`, limit: 1, windowMs: 60_000 };
    const t0 = new Date(Date.now() - 120_000);
    expect(await consumeRateLimit([rule], t0)).toEqual({ ok: true });
    expect(await consumeRateLimit([rule], new Date(t0.getTime() + 20_000))).toEqual({
      ok: false,
      retryAfterSec: 40,
      key: rule.key,
    });
    expect(await consumeRateLimit([rule])).toEqual({ ok: true });
  });

  it("consents are limited per client address, and many addresses cannot shut a study's consents for everyone", async () => {
    const study = `study-${uniqueSuffix()}`;
    const got = [];
    for (const address of ["a", "a", "a", "b", "c"])
      got.push((await admitParticipantEvent("consent", study, address, { perAddress: 2 })).ok);
    expect(got).toEqual([true, true, false, true, true]);
    // 16 addresses × 20 consents (default limits) would fill a study-wide window of 300 and refuse every real
    // participant's consent for up to 10 minutes; per-address limits refuse only those addresses.
    const flood = `study-${uniqueSuffix()}`;
    const results = await Promise.all(
      Array.from({ length: 16 }, async (_, a) => {
        const ok = [];
        for (let i = 0; i < 20; i++) ok.push((await admitParticipantEvent("consent", flood, `198.51.100.${a}`)).ok);
        return ok.every(Boolean);
      }),
    );
    expect(results.every(Boolean)).toBe(true);
    expect((await admitParticipantEvent("consent", flood, "198.51.100.99")).ok).toBe(true);
    expect((await admitParticipantEvent("consent", flood, "198.51.100.0")).ok).toBe(false);
  });

  it("a 429 carries Retry-After (the consent route's refusal had the wait only in its JSON body)", async () => {
    const response = errorResponse(
      new AppError("TOO_MANY_REQUESTS", "Please try again in 586 seconds.", { retryAfterSec: 586 }),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("586");
    expect((await response.json()).error.details).toEqual({ retryAfterSec: 586 });
    expect(errorResponse(new AppError("CONFLICT", "x")).headers.get("Retry-After")).toBeNull();
  });
});

describe("disabled staff accounts", () => {
  it("cannot sign in; disabling is audited; self-disable and disabling the last admin are refused", async () => {
    const admin = await account("admin");
    const user = await account();
    const result = await setUserDisabled({ user: user.email, input: { disabled: true }, actorId: admin.id });
    expect(result).toMatchObject({ id: user.id, disabled: true, changed: true });
    expect(await attempt(user.email, user.password, "192.0.2.200")).toBe("wrong");
    const audit = await db.auditLog.findFirst({ where: { entityId: user.id, action: "user.disable" } });
    expect(audit?.actorId).toBe(admin.id);
    await expect(
      setUserDisabled({ user: admin.id, input: { disabled: true }, actorId: admin.id }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await setUserDisabled({ user: user.id, input: { disabled: false }, actorId: admin.id });
    expect(await attempt(user.email, user.password, "192.0.2.201")).toBe("ok");

    // With every other admin disabled, the last one cannot be.
    const others = await db.user.findMany({
      where: { role: "admin", disabled: false, id: { not: admin.id } },
      select: { id: true },
    });
    await db.user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabled: true } });
    try {
      await expect(setUserDisabled({ user: admin.id, input: { disabled: true }, actorId: null })).rejects.toMatchObject(
        { code: "CONFLICT", message: expect.stringMatching(/last enabled admin/) },
      );
    } finally {
      await db.user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabled: false } });
    }
  });
});

describe("item search", () => {
  it("treats % and _ literally", async () => {
    const tag = `like-${uniqueSuffix()}`;
    const ids = await createTaggedItems(tag, { translation: 3 });
    await db.item.update({
      where: { id: ids.translation![0] },
      data: { question: "Is the ligand 100% inside the pocket?" },
    });
    await db.item.update({ where: { id: ids.translation![1] }, data: { question: "Which residue is ASP_25?" } });
    const search = async (q: string) =>
      (await listItems(ItemListQuerySchema.parse({ tag, q }))).rows.map((r) => r.id).sort();
    expect(await search("%")).toEqual([ids.translation![0]]);
    expect(await search("_")).toEqual([ids.translation![1]]);
    expect(await search("100%")).toEqual([ids.translation![0]]);
    expect(await search("Question")).toEqual([ids.translation![2]]);
    // The PDB id is still matched whole and case-insensitively.
    expect(await search("1ABC")).toEqual([...ids.translation!].sort());
  });
});
