import "server-only";
import { isTransientDbError } from "@/lib/server/db-retry";

export type AppErrorCode = "BAD_REQUEST" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNPROCESSABLE" | "TOO_MANY_REQUESTS";

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

/** Maps an error to a JSON response body and status; unknown errors are logged and hidden. */
export function toErrorResponse(err: unknown): { status: number; body: { error: { code: string; message: string; details?: unknown } } } {
  if (err instanceof AppError) return { status: err.status, body: { error: { code: err.code, message: err.message, details: err.details } } };
  if (isTransientDbError(err)) {
    // Still failing after the retries (database restarting): the client retries, nothing was half-written.
    console.warn(`database unavailable: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    return { status: 503, body: { error: { code: "UNAVAILABLE", message: "The server is briefly unavailable; please try again." } } };
  }
  console.error(err);
  return { status: 500, body: { error: { code: "INTERNAL", message: "Something went wrong on the server." } } };
}
