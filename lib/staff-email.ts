import { z } from "zod";

/**
 * The one rule for staff email addresses (seed, `npm run user:create`, the admin user form and sign-in).
 * A mailbox at a host: `local@host`. The host needs no top-level domain, so the default first admin
 * `admin@localhost` and lab-internal names (`ana@lab-server`) are accepted; zod's `.email()` rejects them.
 * Stored and compared lower-case, trimmed.
 */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function isStaffEmail(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at > 64) return false;
  const local = value.slice(0, at);
  const host = value.slice(at + 1);
  return LOCAL_PART.test(local) && host.length > 0 && host.split(".").every((label) => HOST_LABEL.test(label));
}

export function normaliseStaffEmail(value: string): string {
  return value.trim().toLowerCase();
}

export const STAFF_EMAIL_RULE = "an email address like name@example.org or admin@localhost";

export const StaffEmailSchema = z.string().transform(normaliseStaffEmail).refine(isStaffEmail, STAFF_EMAIL_RULE);
