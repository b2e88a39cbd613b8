/**
 * Load shedding for the participant routes. A request that would only wait in a queue (the process is saturated, or it
 * has just started and is still opening connections and warming its code) is answered at once with 503 and
 * Retry-After; the browser's retry client waits that long and tries again (lib/participant/submit-retry.ts), so a
 * crowd of retries spreads out instead of piling into one process for minutes. Health checks are never shed.
 *
 * Saturated means: more participant requests in progress than `maxInFlight`, or an event-loop delay above `maxLagMs`
 * (the loop is so busy that a new request would wait that long before any of its code runs). While warming up (the
 * first `warmupMs` after start) only `warmupInFlight` requests run at once. Pure apart from its timer: no framework.
 */
export interface ShedOptions {
  maxInFlight: number;
  maxLagMs: number;
  warmupMs: number;
  /** Participant requests allowed at once while warming up. */
  warmupInFlight?: number;
  /** How often the event-loop delay is sampled (ms). */
  sampleMs?: number;
  now?: () => number;
}

export type ShedDecision =
  | { ok: true; release: () => void }
  | { ok: false; retryAfterSec: number; reason: "warming-up" | "in-flight" | "event-loop-delay" };

export class LoadShedder {
  private inFlight = 0;
  private lagMs = 0;
  private readonly startedAt: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  shed = 0;
  admitted = 0;

  constructor(private readonly options: ShedOptions) {
    this.now = options.now ?? (() => performance.now());
    this.startedAt = this.now();
    const sampleMs = options.sampleMs ?? 50;
    let expected = this.now() + sampleMs;
    // The delay of a timer beyond its due time is the event-loop delay; the figure decays so one slow tick does not
    // shed for long.
    this.timer = setInterval(() => {
      const t = this.now();
      const late = Math.max(0, t - expected);
      this.lagMs = Math.max(late, this.lagMs * 0.5);
      expected = t + sampleMs;
    }, sampleMs);
    this.timer.unref();
  }

  /** Current in-flight count and event-loop delay estimate (ms). */
  get state(): { inFlight: number; lagMs: number; warmingUp: boolean } {
    return { inFlight: this.inFlight, lagMs: this.lagMs, warmingUp: this.warmingUp() };
  }

  private warmingUp(): boolean {
    return this.now() - this.startedAt < this.options.warmupMs;
  }

  /** Admit a participant request (call `release` when its response is finished), or say why not and when to retry. */
  tryEnter(): ShedDecision {
    if (this.warmingUp() && this.inFlight >= (this.options.warmupInFlight ?? 8)) {
      this.shed++;
      return {
        ok: false,
        retryAfterSec: Math.max(1, Math.ceil((this.options.warmupMs - (this.now() - this.startedAt)) / 1000)),
        reason: "warming-up",
      };
    }
    if (this.inFlight >= this.options.maxInFlight) {
      this.shed++;
      return { ok: false, retryAfterSec: 1, reason: "in-flight" };
    }
    if (this.lagMs > this.options.maxLagMs) {
      this.shed++;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(this.lagMs / 1000)), reason: "event-loop-delay" };
    }
    this.inFlight++;
    this.admitted++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
      },
    };
  }

  /** The 503 for a shed request (the API's error shape, never cached). */
  static response(decision: Extract<ShedDecision, { ok: false }>): Response {
    const message =
      decision.reason === "warming-up"
        ? "The server is starting; please try again in a moment."
        : "The server is busy; please try again in a moment.";
    return Response.json(
      { error: { code: "UNAVAILABLE", message } },
      {
        status: 503,
        headers: { "Retry-After": String(decision.retryAfterSec), "Cache-Control": "no-store, no-transform" },
      },
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
