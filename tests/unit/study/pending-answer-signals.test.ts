import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keepPendingAnswer, takePendingAnswer, type PendingAnswer } from "@/components/study/pending-answer";

// A kept answer is resent after a reload with the signals measured at its submit: the server stores those values.

class MemoryStorage {
  private readonly data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

const signals = {
  hiddenMs: 2500,
  hiddenCount: 1,
  blurCount: 0,
  blurMs: 0,
  pasteCount: 1,
  pasteChars: 8,
  copyCount: 0,
  copyChars: 0,
  reloads: 0,
  webdriver: false,
  device: { viewportWidth: 1366, viewportHeight: 768, devicePixelRatio: 1, pointer: "fine" as const, touch: false },
};
const body: PendingAnswer = {
  assignmentId: "a1",
  answer: "move x 1",
  idempotencyKey: "key-12345678",
  rtClientMs: 4000,
  timedOut: false,
  interactionLog: {},
  signals,
};

beforeEach(() => {
  (globalThis as { window?: unknown }).window = { sessionStorage: new MemoryStorage() };
});
afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("pending answer with signals", () => {
  it("keeps the signals with the answer", () => {
    keepPendingAnswer(body);
    expect(takePendingAnswer("a1")).toEqual(body);
  });

  it("drops signals that no longer validate (edited storage), keeping the answer", () => {
    keepPendingAnswer({ ...body, signals: { ...signals, hiddenMs: -1 } });
    const kept = takePendingAnswer("a1");
    expect(kept?.answer).toBe("move x 1");
    expect(kept?.signals).toBeUndefined();
  });
});
