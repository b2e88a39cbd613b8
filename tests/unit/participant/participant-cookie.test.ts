import { describe, expect, it } from "vitest";
import { NextResponse } from "next/server";
import {
  createParticipantToken,
  PARTICIPANT_COOKIE,
  PARTICIPANT_COOKIE_OPTIONS,
  participantFromRequest,
  participantSetCookie,
} from "@/lib/server/participant-flow/token";

describe("the participant cookie without Next's request context", () => {
  it("Set-Cookie carries what Next's response.cookies.set wrote (same attributes, same order)", () => {
    const now = Date.now();
    const next = new NextResponse(null);
    next.cookies.set(PARTICIPANT_COOKIE, createParticipantToken("p1", "s1"), PARTICIPANT_COOKIE_OPTIONS);
    const theirs = next.headers.get("set-cookie")!;
    const ours = participantSetCookie("p1", "s1", now);
    // Expires is "now + Max-Age" on each side: compared apart, to the second they were made in.
    const strip = (s: string) => s.replace(/Expires=[^;]+/, "Expires=*");
    expect(strip(ours)).toBe(strip(theirs));
    expect(
      Math.abs(Date.parse(/Expires=([^;]+)/.exec(ours)![1]!) - Date.parse(/Expires=([^;]+)/.exec(theirs)![1]!)),
    ).toBeLessThanOrEqual(2000);
    expect(ours).toMatch(/; HttpOnly; SameSite=lax$/);
  });

  it("reads the session from the request's Cookie header among other cookies; a tampered or missing one is null", () => {
    const token = createParticipantToken("p2", "s2");
    const request = (cookie?: string) =>
      new Request("http://localhost/api/participant/session", cookie ? { headers: { cookie } } : {});
    expect(participantFromRequest(request(`a=1; ${PARTICIPANT_COOKIE}=${token}; b=2`))).toEqual({
      participantId: "p2",
      studyId: "s2",
    });
    expect(participantFromRequest(request(`${PARTICIPANT_COOKIE}=${token.slice(0, -2)}xx`))).toBeNull();
    expect(participantFromRequest(request(`x${PARTICIPANT_COOKIE}=${token}`))).toBeNull();
    expect(participantFromRequest(request())).toBeNull();
    // Percent-encoded as a browser may send it back; a malformed escape elsewhere in the header changes nothing.
    expect(
      participantFromRequest(
        request(`c=%zz; ${PARTICIPANT_COOKIE}=${encodeURIComponent(token).replace(/\./g, "%2E")}`),
      ),
    ).toEqual({ participantId: "p2", studyId: "s2" });
  });
});
