import "server-only";
import { isTransientDbError } from "@/lib/server/db-retry";

export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "GONE"
  | "PAYLOAD_TOO_LARGE"
  | "UNPROCESSABLE"
  | "TOO_MANY_REQUESTS";

const STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
};

/** An error whose message is safe to show to the caller. Everything else becomes a generic 500. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/**
 * The fields of a unique constraint a write violated (Prisma P2002, through the pg driver adapter or not), or null.
 * Two parallel creates with one study slug or one account email both pass the "already used?" check; the database's
 * unique index refuses the second, which is a 409 naming the field, not a 500.
 */
export function uniqueViolationFields(err: unknown): string[] | null {
  if (!err || typeof err !== "object" || (err as { code?: unknown }).code !== "P2002") return null;
  const meta = (err as { meta?: Record<string, unknown> }).meta ?? {};
  const target = meta.target;
  if (Array.isArray(target)) return target.map(String);
  if (typeof target === "string") return [target.replace(/^[A-Za-z]+_(.*)_key$/, "$1")];
  const cause = (
    meta.driverAdapterError as { cause?: { constraint?: { fields?: unknown; index?: unknown } } } | undefined
  )?.cause;
  const fields = cause?.constraint?.fields;
  if (Array.isArray(fields)) return fields.map((f) => String(f).replace(/^"|"$/g, ""));
  if (typeof cause?.constraint?.index === "string")
    return [cause.constraint.index.replace(/^[A-Za-z]+_(.*)_key$/, "$1")];
  return ["unknown"];
}

/**
 * The 409 for a value a unique field already holds: the same body whether a pre-check saw the clash or the database's
 * unique index refused the write (a lost race), so a client handles one answer.
 */
export function uniqueConflictError(fields: readonly string[]): AppError {
  return new AppError(
    "CONFLICT",
    `Another record already uses this ${fields.join(", ")}; choose a different one.`,
    fields.map((path) => ({ path, message: `already used (${path} must be unique)` })),
  );
}

/** Maps an error to a JSON response body and status; unknown errors are logged and hidden. */
export function toErrorResponse(err: unknown): {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
} {
  if (err instanceof AppError)
    return { status: err.status, body: { error: { code: err.code, message: err.message, details: err.details } } };
  const unique = uniqueViolationFields(err);
  if (unique) {
    const conflict = uniqueConflictError(unique);
    return {
      status: conflict.status,
      body: { error: { code: conflict.code, message: conflict.message, details: conflict.details } },
    };
  }
  // A heavy-work job refused or stopped (lib/server/heavy/pool.ts; matched by name so this module stays free of the
  // pool's server-only imports): its message names the budget and the variable that sets it.
  if (err instanceof Error && err.name === "HeavyJobError") {
    const budget = (err as Error & { budget?: string }).budget;
    return budget === "queue"
      ? { status: 429, body: { error: { code: "TOO_MANY_REQUESTS", message: err.message } } }
      : { status: 503, body: { error: { code: "UNAVAILABLE", message: err.message } } };
  }
  if (isTransientDbError(err)) {
    // Still failing after the retries (database restarting): the client retries, nothing was half-written.
    console.warn(`database unavailable: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    return {
      status: 503,
      body: { error: { code: "UNAVAILABLE", message: "The server is briefly unavailable; please try again." } },
    };
  }
  console.error(err);
  return { status: 500, body: { error: { code: "INTERNAL", message: "Something went wrong on the server." } } };
}
