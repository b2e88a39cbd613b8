import type { z } from "zod";
import {
  PARTICIPANT_API,
  type AnswerBody,
  type ConsentBody,
  type DeviceBody,
  type ShownBody,
} from "@/lib/participant/api-contract";
import {
  ATTEMPT_TIMEOUT_MS,
  isRetryableStatus,
  nextRetryDelayMs,
  retryAfterMs,
  withinBudget,
} from "@/lib/participant/submit-retry";

/** The server refused the request for good (a 4xx it will not change its mind about): not retried. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A 2xx whose body is not what the contract says: retrying cannot help. */
class UnexpectedResponse extends Error {}

/** One request's outcome: the parsed body, or the status, the server's message and the wait it asked for. */
type Attempt<T> = { ok: true; data: T } | { ok: false; status: number; message: string; retryAfterMs: number | null };

/** One request (throws on a network error or timeout); a 2xx body is parsed with the contract's schema. */
async function attempt<S extends z.ZodType>(
  url: string,
  init: RequestInit,
  response: S,
): Promise<Attempt<z.output<S>>> {
  const res = await fetch(url, init);
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) {
    const parsed = response.safeParse(json);
    if (!parsed.success) throw new UnexpectedResponse(`Unexpected answer from the server (${url}).`);
    return { ok: true, data: parsed.data };
  }
  const message = (json as { error?: { message?: unknown } } | null)?.error?.message;
  return {
    ok: false,
    status: res.status,
    message: typeof message === "string" ? message : `Request failed (${res.status}).`,
    retryAfterMs: retryAfterMs(res.status, res.headers.get("retry-after")),
  };
}

const jsonPost = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
  signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
});

/**
 * One request, retried on network failures, timeouts, 408/429 and 5xx with back-off for at least three minutes
 * (lib/participant/submit-retry.ts; an answer's idempotency key makes retries safe), waiting at least as long as a
 * 503's or 429's Retry-After asks. `onRetry` reports each new attempt.
 */
async function withRetry<S extends z.ZodType>(
  url: string,
  init: () => RequestInit,
  response: S,
  onRetry: (attempt: number) => void = () => {},
): Promise<z.output<S>> {
  const startedAt = Date.now();
  for (let n = 0; ; n++) {
    let retryAfter: number | null = null;
    try {
      const out = await attempt(url, init(), response);
      if (out.ok) return out.data;
      if (!isRetryableStatus(out.status)) throw new HttpError(out.status, out.message);
      retryAfter = out.retryAfterMs;
      throw new Error(out.message);
    } catch (err) {
      const delay = nextRetryDelayMs(n + 1, retryAfter);
      if (err instanceof HttpError || err instanceof UnexpectedResponse || !withinBudget(startedAt, Date.now(), delay))
        throw err;
      onRetry(n + 1);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** POST JSON with the retry rules of `withRetry`. */
const postWithRetry = <S extends z.ZodType>(
  url: string,
  body: unknown,
  response: S,
  onRetry?: (attempt: number) => void,
): Promise<z.output<S>> => withRetry(url, () => jsonPost(body), response, onRetry);

const SHOWN_RETRY_DELAYS_MS = [500, 1500, 4000];

/** The participant API as the browser calls it: bodies typed and responses parsed by lib/participant/api-contract.ts. */
export const participantApi = {
  consent: (body: ConsentBody, onRetry?: (attempt: number) => void) =>
    postWithRetry(PARTICIPANT_API.consent.path, body, PARTICIPANT_API.consent.response, onRetry),
  device: (body: DeviceBody) => postWithRetry(PARTICIPANT_API.device.path, body, PARTICIPANT_API.device.response),
  primer: () => postWithRetry(PARTICIPANT_API.primer.path, {}, PARTICIPANT_API.primer.response),
  answer: (body: AnswerBody, onRetry?: (attempt: number) => void) =>
    postWithRetry(PARTICIPANT_API.answer.path, body, PARTICIPANT_API.answer.response, onRetry),

  /**
   * The session a page load starts from (the page itself is a static shell): retried like an answer, so a busy server's
   * 503 or a dropped connection is waited out; throws HttpError when the server refuses (no participant cookie: 401).
   */
  load: (onRetry?: (attempt: number) => void) =>
    withRetry(
      PARTICIPANT_API.session.path,
      () => ({ cache: "no-store", signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) }),
      PARTICIPANT_API.session.response,
      onRetry,
    ),

  /** The current session, one attempt; null when it cannot be read (offline, refused). */
  async session() {
    try {
      const out = await attempt(PARTICIPANT_API.session.path, { cache: "no-store" }, PARTICIPANT_API.session.response);
      return out.ok ? out.data : null;
    } catch {
      return null;
    }
  },

  /**
   * Reports the question shown, retried on network errors, 429 and 5xx (a few times, then null: the page says so); the
   * request's send and receive times let the caller estimate the server's clock.
   */
  async shown(body: ShownBody) {
    for (let n = 0; ; n++) {
      const t0 = Date.now();
      let retryAfter: number | null = null;
      try {
        const out = await attempt(
          PARTICIPANT_API.shown.path,
          { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
          PARTICIPANT_API.shown.response,
        );
        const t1 = Date.now();
        if (out.ok) return { body: out.data, t0, t1 };
        // 429: this address has many requests in progress (the front's per-address bound); retried like a 5xx.
        if (out.status < 500 && out.status !== 429) return null;
        retryAfter = out.retryAfterMs;
      } catch (err) {
        if (err instanceof UnexpectedResponse) return null;
        // Network error: retried below.
      }
      const delay = SHOWN_RETRY_DELAYS_MS[n];
      if (delay === undefined) return null;
      await new Promise((r) => setTimeout(r, Math.max(delay, retryAfter ?? 0)));
    }
  },

  /** The interactive scene of an assignment (one attempt); rejects with a message to show in place of the 3D view. */
  async scene(assignmentId: string) {
    const out = await attempt(PARTICIPANT_API.scene.path(assignmentId), {}, PARTICIPANT_API.scene.response).catch(
      (err: unknown) => {
        if (err instanceof UnexpectedResponse) throw new Error("3D view unavailable (unreadable scene)");
        throw err;
      },
    );
    if (!out.ok) throw new Error(`3D view unavailable (${out.status})`);
    return out.data;
  },
};
