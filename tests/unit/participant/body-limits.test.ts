import { describe, expect, it } from "vitest";
import {
  AnswerBodySchema,
  ConsentBodySchema,
  PARTICIPANT_BODY_LIMITS,
  ShownBodySchema,
} from "@/lib/participant/api-contract";

/** The longest body each schema accepts, as the browser writes it (JSON.stringify), against the route's limit. */
describe("participant body limits (PARTICIPANT_BODY_LIMITS)", () => {
  const bytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

  it("an answer at the schema's caps fits under the answer route's limit", () => {
    // The widest camera sample the 3D view sends: time in whole ms, quaternion to 4 decimals, distance to 2.
    const sample = {
      t: 86_399_999,
      q: [-0.1234, -0.1234, -0.1234, -0.1234] as [number, number, number, number],
      d: 12345.67,
    };
    const event = { t: 86_399_999, type: "x".repeat(40), detail: "A".repeat(200) };
    const body = AnswerBodySchema.parse({
      assignmentId: "a".repeat(64),
      answer: "T".repeat(4000),
      idempotencyKey: "k".repeat(100),
      rtClientMs: 86_399_999,
      timedOut: false,
      interactionLog: {
        camera: Array(5000).fill(sample),
        events: Array(2000).fill(event),
        imageZooms: 10_000,
        viewport: { width: 100_000, height: 100_000 },
      },
      signals: {
        hiddenMs: 86_400_000,
        hiddenCount: 10_000,
        blurCount: 10_000,
        blurMs: 86_400_000,
        pasteCount: 10_000,
        pasteChars: 1_000_000,
        copyCount: 10_000,
        copyChars: 1_000_000,
        reloads: 10_000,
        webdriver: false,
        device: {
          viewportWidth: 100_000,
          viewportHeight: 100_000,
          devicePixelRatio: 20,
          pointer: "coarse",
          touch: true,
        },
      },
    });
    const size = bytes(body);
    // 5000 × 66 + 2000 × 277 bytes of log and ~4.5 KB of the rest: ≈ 0.89 MB, under 1 MiB.
    expect(size).toBeGreaterThan(850_000);
    expect(size).toBeLessThan(PARTICIPANT_BODY_LIMITS.answer);
  });

  it("consent with a 1000-character user agent of control characters (6 bytes each in JSON) fits; so does shown", () => {
    const device = {
      viewportWidth: 100_000,
      viewportHeight: 100_000,
      screenWidth: 100_000,
      screenHeight: 100_000,
      devicePixelRatio: 20,
      userAgent: "\u0001".repeat(1000),
      pointer: "coarse",
      webgl: true,
    };
    const consent = ConsentBodySchema.parse({ accept: true, device });
    expect(bytes(consent)).toBeGreaterThan(6000);
    expect(bytes(consent)).toBeLessThan(PARTICIPANT_BODY_LIMITS.consent);
    expect(bytes({ device })).toBeLessThan(PARTICIPANT_BODY_LIMITS.device);
    expect(bytes(ShownBodySchema.parse({ assignmentId: "\u0001".repeat(64) }))).toBeLessThan(
      PARTICIPANT_BODY_LIMITS.shown,
    );
    expect(bytes({})).toBeLessThan(PARTICIPANT_BODY_LIMITS.primer);
  });
});
