// Accounts are slowed, never locked: with a per-account hard limit (50 an hour) a distributed guess (11 addresses ×
// 5 failures) would lock the account for an hour, its owner included.
import bcrypt from "bcryptjs";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS, SignInThrottledError, verifySignIn, waitText } from "@/lib/server/sign-in";
import { clearUserSignInLock } from "@/lib/server/dal/users/clear-user-sign-in-lock";
import { uniqueSuffix } from "./admin-fixtures";
import type { StaffRole } from "@/types/staff-role";

afterAll(async () => {
  await disconnectDb();
});

async function account(role: StaffRole, password = "right-password-123") {
  const email = `${role}-${uniqueSuffix()}@example.org`;
  const user = await db.user.create({ data: { email, role, passwordHash: await bcrypt.hash(password, 4) } });
  return { ...user, password };
}

/** The throttle's decision for one attempt: "ok", "wrong", or the wait it asks for in seconds. */
async function attempt(
  email: string,
  password: string,
  address: string,
  now: Date,
): Promise<"ok" | "wrong" | { waitSec: number }> {
  try {
    return (await verifySignIn({ email, password, address, now })) ? "ok" : "wrong";
  } catch (err) {
    if (err instanceof SignInThrottledError) return { waitSec: err.retryAfterSec };
    throw err;
  }
}

/** 11 addresses × 5 guesses at `user`, one every 10 s of simulated time from t0; returns the time after the attack. */
async function distributedGuess(email: string, t0: number): Promise<{ t: number; wrong: number; throttled: number }> {
  const net = Math.floor(Math.random() * 200);
  let t = t0;
  let wrong = 0;
  let throttled = 0;
  for (let a = 0; a < 11; a++) {
    for (let i = 0; i < 5; i++) {
      const r = await attempt(email, `guess-${a}-${i}`, `198.18.${net}.${a}`, new Date(t));
      if (r === "wrong") wrong++;
      else if (r !== "ok") throttled++;
      t += 10_000;
    }
  }
  return { t, wrong, throttled };
}

describe("sign-in throttling without lock-out", () => {
  it("11 addresses × 5 failures leave the owner able to sign in from a clean address within seconds", async () => {
    const owner = await account("admin");
    const t0 = Date.now() - 15 * 60_000;
    const attack = await distributedGuess(owner.email, t0);
    expect(attack.wrong + attack.throttled).toBe(55);
    // The owner, from an address that has not failed: the throttle asks for at most a few seconds, then lets her in.
    const first = await attempt(owner.email, owner.password, "192.0.2.200", new Date(attack.t));
    expect(first).not.toBe("wrong");
    if (typeof first === "object") {
      expect(first.waitSec).toBeLessThanOrEqual(SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS / 1000);
      expect(await attempt(owner.email, owner.password, "192.0.2.200", new Date(attack.t + first.waitSec * 1000))).toBe(
        "ok",
      );
    }
  });

  it("a fresh attacker address gets one guess at the short pace, then waits as long as the account's failures say", async () => {
    const owner = await account("researcher");
    const attack = await distributedGuess(owner.email, Date.now() - 15 * 60_000);
    const fresh = `198.19.${Math.floor(Math.random() * 200)}.1`;
    expect(
      await attempt(owner.email, "fresh-guess", fresh, new Date(attack.t + SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS)),
    ).toBe("wrong");
    const next = await attempt(
      owner.email,
      "fresh-guess-2",
      fresh,
      new Date(attack.t + SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS + 10_000),
    );
    expect(next).toMatchObject({ waitSec: expect.any(Number) });
    expect((next as { waitSec: number }).waitSec).toBeGreaterThan(60);
  });

  it("an admin (or the CLI) clears an account's throttle: the owner who mistyped during an attack signs in at once", async () => {
    const owner = await account("researcher");
    const t0 = Date.now() - 15 * 60_000;
    const attack = await distributedGuess(owner.email, t0);
    const home = "192.0.2.201";
    let t = attack.t + 10_000;
    // The owner mistypes once (her address has now failed): she waits like an attacker.
    let typo = await attempt(owner.email, "typo", home, new Date(t));
    if (typo !== "wrong" && typo !== "ok") {
      t += typo.waitSec * 1000;
      typo = await attempt(owner.email, "typo", home, new Date(t));
    }
    expect(typo).toBe("wrong");
    const slowed = await attempt(owner.email, owner.password, home, new Date(t + 1000));
    expect(slowed).toMatchObject({ waitSec: expect.any(Number) });
    expect((slowed as { waitSec: number }).waitSec).toBeGreaterThan(SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS / 1000);
    const cleared = await clearUserSignInLock({ user: owner.email, actorId: null });
    expect(cleared.cleared).toBeGreaterThan(0);
    expect(await attempt(owner.email, owner.password, home, new Date(t + 1000))).toBe("ok");
    await expect(
      db.auditLog.count({ where: { entityType: "user", entityId: owner.id, action: "user.signin.unlock" } }),
    ).resolves.toBe(1);
  });

  it("a success clears only the succeeding address's failures, not the account-wide count of the others", async () => {
    const owner = await account("researcher");
    const attack = await distributedGuess(owner.email, Date.now() - 15 * 60_000);
    const accountRows = () => db.signInAttempt.count({ where: { key: `signin:account:${owner.email}` } });
    const before = await accountRows();
    expect(before).toBe(attack.wrong);
    // The owner (or an attacker who knows the password) mistypes once at home, then signs in there.
    const home = "192.0.2.202";
    let t = attack.t + SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS;
    expect(await attempt(owner.email, "typo", home, new Date(t))).toBe("wrong");
    expect(await accountRows()).toBe(before + 1);
    let ok = await attempt(owner.email, owner.password, home, new Date((t += 1000)));
    if (typeof ok === "object")
      ok = await attempt(owner.email, owner.password, home, new Date((t += ok.waitSec * 1000)));
    expect(ok).toBe("ok");
    // Her typo and her success are gone; the attackers' failures still slow the account.
    expect(await accountRows()).toBe(before);
    await expect(
      db.signInAttempt.count({ where: { key: { startsWith: `signin:pair:${owner.email}|${home}` } } }),
    ).resolves.toBe(0);
  });

  it("says the wait in words with the right plural", () => {
    expect(waitText(1)).toBe("1 second");
    expect(waitText(40)).toBe("40 seconds");
    expect(waitText(90)).toBe("2 minutes");
    expect(waitText(60 * 60)).toBe("60 minutes");
    expect(new SignInThrottledError(1).message).toBe("Too many failed sign-ins. Try again in 1 second.");
  });
});
