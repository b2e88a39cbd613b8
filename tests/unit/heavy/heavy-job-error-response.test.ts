// A heavy job refused or stopped reaches the researcher as what it is, with the message naming the budget: a full
// queue (theirs or everyone's) is 429, a job over its time or memory budget 503; not a bare 500.
import { describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/server/errors";
import { HeavyJobError } from "@/lib/server/heavy/pool";

describe("heavy-job errors as responses", () => {
  it("queue → 429 with the message, budget overrun → 503 with the message", () => {
    const queue = toErrorResponse(new HeavyJobError("queue", "the export was refused: … (HEAVY_USER_QUEUE_MAX)"));
    expect(queue).toEqual({
      status: 429,
      body: { error: { code: "TOO_MANY_REQUESTS", message: "the export was refused: … (HEAVY_USER_QUEUE_MAX)" } },
    });
    const time = toErrorResponse(new HeavyJobError("time", "the export was stopped: … (HEAVY_RESULTS_BUDGET_MS)"));
    expect(time.status).toBe(503);
    expect(time.body.error.message).toContain("HEAVY_RESULTS_BUDGET_MS");
  });
});
