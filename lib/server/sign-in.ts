import "server-only";
import bcrypt from "bcryptjs";
import { db } from "@/lib/server/db";
import { countKeys, lockKeys, recordKeys } from "@/lib/server/rate-limit";
import type { StaffRole } from "@/lib/server/auth";

/**
 * Password sign-in with three limits, all counted atomically BEFORE the password is checked
 * (lib/server/rate-limit.ts), so parallel guesses cannot slip through:
 * - per account AND client address: SIGNIN_FREE_FAILURES failures, then a back-off that doubles with each further
 *   failure (SIGNIN_BACKOFF_BASE_MS … SIGNIN_BACKOFF_MAX_MS since the last one). An attacker at one address slows
 *   down only his own guessing: the owner signs in from her own address, and other accounts are not touched.
 * - per account from all addresses (a distributed guess): after SIGNIN_ACCOUNT_FREE_FAILURES failures in an hour,
 *   every attempt waits accountDelayMs(failures) after the account's last failure, doubling up to
 *   SIGNIN_BACKOFF_MAX_MS, but an address that has not failed for this account waits at most
 *   SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS. The account is slowed, never locked: its owner, from an address that has not
 *   failed, signs in within seconds however many addresses guess (a hard per-account limit would let a few
 *   addresses lock the owner out). An attacker's fresh address gets one attempt at that pace, then is an address
 *   that failed.
 * - per client address over all accounts: SIGNIN_ADDRESS_LIMIT failures in 15 minutes (password spraying).
 * A success clears only the failures of the address that succeeded (its account × address count and the
 * account-wide events those failures added; clearOwnFailures): the account-wide count of other addresses stays, so an
 * attacker cannot reset it by signing in to the account from anywhere. clearSignInLock (admin users page, `npm run user:create -- --unlock`) too.
 * Unknown, disabled and known accounts all cost one bcrypt comparison, so the answer time does not tell whether an
 * email has an account.
 */
export const SIGNIN_FREE_FAILURES = 5;
export const SIGNIN_BACKOFF_BASE_MS = 30_000;
export const SIGNIN_BACKOFF_MAX_MS = 15 * 60_000;
export const SIGNIN_PAIR_WINDOW_MS = 24 * 3600_000;
export const SIGNIN_ACCOUNT_FREE_FAILURES = 10;
export const SIGNIN_ACCOUNT_BACKOFF_BASE_MS = 1_000;
export const SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS = 5_000;
export const SIGNIN_ACCOUNT_WINDOW_MS = 3600_000;
export const SIGNIN_ADDRESS_LIMIT = 30;
export const SIGNIN_ADDRESS_WINDOW_MS = 15 * 60_000;

/** A bcrypt hash (cost 12, as real ones: PASSWORD_HASH_ROUNDS) of a password no one uses, compared for unknown emails. */
const DUMMY_HASH = "$2b$12$UuB1WDpnrZ66W7aVKOS2V.nrW4ApxqLYkd0if0MfVL/WtSTRwwXwq";

/** A burst of sign-ins queues on the key locks, each holding a pooled connection meanwhile. */
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

/** "1 second", "40 seconds", "1 minute", "15 minutes". */
export function waitText(sec: number): string {
  if (sec < 90) return `${sec} ${sec === 1 ? "second" : "seconds"}`;
  const min = Math.ceil(sec / 60);
  return `${min} ${min === 1 ? "minute" : "minutes"}`;
}

export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSec: number) {
    super(`Too many failed sign-ins. Try again in ${waitText(retryAfterSec)}.`);
    this.name = "SignInThrottledError";
  }
}

/** Waiting time after `failures` failures of one account from one address (0 while under the free allowance). */
export function backoffMs(failures: number): number {
  if (failures < SIGNIN_FREE_FAILURES) return 0;
  return Math.min(SIGNIN_BACKOFF_MAX_MS, SIGNIN_BACKOFF_BASE_MS * 2 ** (failures - SIGNIN_FREE_FAILURES));
}

/** The account-wide wait after `failures` failures of one account within SIGNIN_ACCOUNT_WINDOW_MS, from an address that failed it. */
export function accountDelayMs(failures: number): number {
  if (failures < SIGNIN_ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(
    SIGNIN_BACKOFF_MAX_MS,
    SIGNIN_ACCOUNT_BACKOFF_BASE_MS * 2 ** (failures - SIGNIN_ACCOUNT_FREE_FAILURES),
  );
}

export interface SignInCounts {
  /** Failures of this account from this address (SIGNIN_PAIR_WINDOW_MS) and the newest one. */
  pair: { count: number; last: Date | null };
  /** Failures of this account from every address (SIGNIN_ACCOUNT_WINDOW_MS) and the newest one. */
  account: { count: number; last: Date | null };
  /** Failures from this address over all accounts (SIGNIN_ADDRESS_WINDOW_MS) and the oldest one. */
  address: { count: number; first: Date | null };
}

/** How long this attempt must wait (ms, 0: go ahead): the throttle decision, from the counts before the attempt. */
export function signInWaitMs(counts: SignInCounts, now: Date): number {
  const { pair, account, address } = counts;
  const accountDelay =
    pair.count > 0
      ? accountDelayMs(account.count)
      : Math.min(accountDelayMs(account.count), SIGNIN_CLEAN_ADDRESS_MAX_DELAY_MS);
  return Math.max(
    0,
    pair.last ? pair.last.getTime() + backoffMs(pair.count) - now.getTime() : 0,
    account.last ? account.last.getTime() + accountDelay - now.getTime() : 0,
    address.count >= SIGNIN_ADDRESS_LIMIT && address.first
      ? address.first.getTime() + SIGNIN_ADDRESS_WINDOW_MS - now.getTime()
      : 0,
  );
}

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
  role: StaffRole;
}

/** Checks a staff password. Returns the user, null for a wrong password/unknown/disabled account, or throws SignInThrottledError. */
export async function verifySignIn(options: {
  email: string;
  password: string;
  address: string;
  now?: Date;
}): Promise<SignedInUser | null> {
  const email = options.email.trim().toLowerCase();
  const now = options.now ?? new Date();
  const pairKey = `signin:pair:${email}|${options.address}`;
  const accountKey = `signin:account:${email}`;
  const addressKey = `signin:address:${options.address}`;

  const pending = await db.$transaction(async (tx) => {
    await lockKeys(tx, [pairKey, accountKey, addressKey]);
    const counts = await countKeys(
      tx,
      [
        { key: pairKey, windowMs: SIGNIN_PAIR_WINDOW_MS },
        { key: accountKey, windowMs: SIGNIN_ACCOUNT_WINDOW_MS },
        { key: addressKey, windowMs: SIGNIN_ADDRESS_WINDOW_MS },
      ],
      now,
    );
    const pair = counts.get(pairKey)!;
    const account = counts.get(accountKey)!;
    const address = counts.get(addressKey)!;
    const wait = signInWaitMs({ pair, account, address }, now);
    if (wait > 0) return { throttledSec: Math.ceil(wait / 1000), ids: [] };
    // Counted as a failure now, taken back on success: a parallel attempt already sees this one.
    return { throttledSec: 0, ids: await recordKeys(tx, [pairKey, accountKey, addressKey], now) };
  }, TX_OPTIONS);
  if (pending.throttledSec > 0) throw new SignInThrottledError(pending.throttledSec);

  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, role: true, passwordHash: true, disabled: true },
  });
  const matches = await bcrypt.compare(options.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || user.disabled || !matches) return null;
  await clearOwnFailures(pairKey, accountKey, pending.ids[2]!);
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/**
 * After a success: removes this address's failures of the account (the pair key, this attempt included), one
 * account-wide event for each of them (recordKeys gave every attempt's rows one time), and this attempt's
 * per-address event. Account-wide events of other addresses stay.
 */
async function clearOwnFailures(pairKey: string, accountKey: string, addressEventId: bigint): Promise<void> {
  const own = await db.signInAttempt.findMany({ where: { key: pairKey }, select: { at: true } });
  const wanted = new Map<number, number>();
  for (const { at } of own) wanted.set(at.getTime(), (wanted.get(at.getTime()) ?? 0) + 1);
  const candidates = wanted.size
    ? await db.signInAttempt.findMany({
        where: { key: accountKey, at: { in: own.map((r) => r.at) } },
        select: { id: true, at: true },
      })
    : [];
  const ids: bigint[] = [addressEventId];
  for (const { id, at } of candidates) {
    const left = wanted.get(at.getTime()) ?? 0;
    if (left > 0) {
      ids.push(id);
      wanted.set(at.getTime(), left - 1);
    }
  }
  await db.signInAttempt.deleteMany({ where: { OR: [{ key: pairKey }, { id: { in: ids } }] } });
}

/**
 * Clears an account's sign-in throttle (its failures from every address): for an owner slowed by someone else's
 * guessing. The per-address spraying counts stay. Returns the number of failure events removed.
 */
export async function clearSignInLock(email: string): Promise<number> {
  const key = email.trim().toLowerCase();
  const { count } = await db.signInAttempt.deleteMany({
    where: { OR: [{ key: `signin:account:${key}` }, { key: { startsWith: `signin:pair:${key}|` } }] },
  });
  return count;
}
