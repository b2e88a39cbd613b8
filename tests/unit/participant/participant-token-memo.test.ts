import { beforeEach, describe, expect, it, vi } from "vitest";

// The secret the tokens are made under, changed by a test; and a count of the HMACs computed.
const state = vi.hoisted(() => ({ secret: "first secret of the test", hmacs: 0 }));
vi.mock("@/lib/server/secrets", () => ({ getAuthSecret: () => state.secret }));
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  const createHmac = (...args: Parameters<typeof crypto.createHmac>) => {
    state.hmacs++;
    return crypto.createHmac(...args);
  };
  return { ...crypto, default: { ...crypto, createHmac }, createHmac };
});

const { createParticipantToken, verifyParticipantToken } = await import("@/lib/server/participant-flow/token");
// The test's own HMACs are not counted.
const { createHmac: realCreateHmac } = await vi.importActual<typeof import("node:crypto")>("node:crypto");

/** A token for these ids with a MAC made under `secret` (what a forger who guessed a secret would send). */
function tokenUnder(secret: string, participantId: string, studyId: string): string {
  const payload = `${participantId}.${studyId}`;
  return `${payload}.${realCreateHmac("sha256", secret).update(`participant:${payload}`).digest("base64url")}`;
}

describe("the participant token's MAC memo", () => {
  beforeEach(() => {
    state.secret = "first secret of the test";
    state.hmacs = 0;
  });

  it("computes a participant's MAC once: the cookie's check and the image links' cookie value reuse it", () => {
    const token = createParticipantToken("memo-p1", "memo-s1");
    expect(token).toBe(tokenUnder(state.secret, "memo-p1", "memo-s1"));
    expect(state.hmacs).toBe(1);
    for (let i = 0; i < 5; i++) {
      expect(verifyParticipantToken(token)).toEqual({ participantId: "memo-p1", studyId: "memo-s1" });
      expect(createParticipantToken("memo-p1", "memo-s1")).toBe(token);
    }
    expect(state.hmacs).toBe(1);
    // A token this process did not issue (another instance did) is verified once, then known.
    const other = tokenUnder(state.secret, "memo-p2", "memo-s1");
    expect(verifyParticipantToken(other)).toEqual({ participantId: "memo-p2", studyId: "memo-s1" });
    expect(verifyParticipantToken(other)).toEqual({ participantId: "memo-p2", studyId: "memo-s1" });
    expect(state.hmacs).toBe(2);
  });

  it("refuses a tampered MAC for a payload it knows, and a forged token is neither accepted nor remembered", () => {
    const token = createParticipantToken("memo-p3", "memo-s3");
    const mac = token.split(".")[2]!;
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    expect(verifyParticipantToken(`memo-p3.memo-s3.${flipped}`)).toBeNull();
    expect(verifyParticipantToken(`memo-p3.memo-s3.${mac}x`)).toBeNull();
    expect(verifyParticipantToken(tokenUnder("a guessed secret", "memo-p3", "memo-s3"))).toBeNull();
    // A forgery for a payload the process has not seen costs an HMAC each time: it was not kept.
    const forged = tokenUnder("a guessed secret", "memo-p4", "memo-s4");
    const before = state.hmacs;
    expect(verifyParticipantToken(forged)).toBeNull();
    expect(verifyParticipantToken(forged)).toBeNull();
    expect(state.hmacs).toBe(before + 2);
    // …and the genuine token for that payload still verifies (the forgery left nothing behind).
    expect(verifyParticipantToken(tokenUnder(state.secret, "memo-p4", "memo-s4"))).toEqual({
      participantId: "memo-p4",
      studyId: "memo-s4",
    });
  });

  it("a MAC remembered under one secret is not trusted under another", () => {
    const old = createParticipantToken("memo-p5", "memo-s5");
    expect(verifyParticipantToken(old)).not.toBeNull();
    state.secret = "second secret of the test";
    expect(verifyParticipantToken(old)).toBeNull();
    const renewed = createParticipantToken("memo-p5", "memo-s5");
    expect(renewed).toBe(tokenUnder("second secret of the test", "memo-p5", "memo-s5"));
    expect(renewed).not.toBe(old);
    expect(verifyParticipantToken(renewed)).toEqual({ participantId: "memo-p5", studyId: "memo-s5" });
  });
});

describe("the memo's bound", () => {
  it("keeps at most MAX_KNOWN_MACS payloads, dropping the oldest first", async () => {
    const { MAX_KNOWN_MACS } = await import("@/lib/server/participant-flow/token");
    state.secret = "bound secret of the test";
    const first = createParticipantToken("bound-p0", "bound-s");
    for (let i = 1; i <= MAX_KNOWN_MACS; i++) createParticipantToken(`bound-p${i}`, "bound-s");
    // The newest is still known; the first was dropped: checking it costs an HMAC again (and still succeeds).
    state.hmacs = 0;
    expect(verifyParticipantToken(tokenUnder(state.secret, `bound-p${MAX_KNOWN_MACS}`, "bound-s"))).not.toBeNull();
    expect(state.hmacs).toBe(0);
    expect(verifyParticipantToken(first)).toEqual({ participantId: "bound-p0", studyId: "bound-s" });
    expect(state.hmacs).toBe(1);
  });
});
