/** PostgreSQL's OID of `timestamp without time zone` (pg_type.oid), the type Prisma stores DateTime as. */
export const PG_TIMESTAMP_OID = 1114;

/** `timestamp` text as PostgreSQL prints it (DateStyle ISO): date, space, time, up to 6 fraction digits. */
const TIMESTAMP_TEXT_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?$/;

/**
 * A `timestamp without time zone` as the UTC instant Prisma means by it. node-postgres' default
 * parser reads it as server-local time, which would shift every date when TZ is not UTC.
 * Fractions beyond milliseconds are truncated (Date holds ms; the columns are timestamp(3)).
 */
export function parseUtcTimestamp(text: string): Date {
  if (!TIMESTAMP_TEXT_PATTERN.test(text)) {
    throw new Error(
      `responses export: unexpected timestamp '${text}' from PostgreSQL (expected YYYY-MM-DD HH:MM:SS[.ffffff])`,
    );
  }
  return new Date(`${text.slice(0, 10)}T${text.slice(11)}Z`);
}
