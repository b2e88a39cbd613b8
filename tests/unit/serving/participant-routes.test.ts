import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { canonicalPath, matchParticipantRoute, participantPathRefusal } from "@/lib/server/serving/routes";

/** Every route of the participant API contract, with an address for it. */
const CONTRACT = Object.entries(PARTICIPANT_API).map(([key, r]) => ({
  key,
  method: r.method,
  path: typeof r.path === "string" ? r.path : r.path("abcdefghij0123"),
  maxBodyBytes: "maxBodyBytes" in r ? r.maxBodyBytes : undefined,
}));

describe("the front's route table is the participant API contract", () => {
  it("answers every contract route with its method and body limit, and no other method", () => {
    for (const r of CONTRACT) {
      const route = matchParticipantRoute(r.method, r.path, undefined);
      expect(route, r.key).not.toBeNull();
      expect(route!.maxBodyBytes, r.key).toBe(r.maxBodyBytes);
      // Every POST, shed or not, counts against its address's bound (its body is read before anything else).
      if (r.method === "POST") expect(route!.perAddress, r.key).toBe(true);
      expect(matchParticipantRoute(r.method === "GET" ? "POST" : "GET", r.path, undefined), r.key).toBeNull();
    }
  });

  it("Next's participant route files are the contract's routes, no more", () => {
    const dir = path.resolve("app/api/participant");
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith("route.ts"))
      .map((f) => `/api/participant/${path.dirname(f).split(path.sep).join("/")}`)
      .sort();
    const contract = CONTRACT.filter((r) => r.path.startsWith("/api/participant/"))
      .map((r) => {
        const p = PARTICIPANT_API[r.key as keyof typeof PARTICIPANT_API].path;
        return typeof p === "string" ? p : decodeURIComponent(p("[assignmentId]"));
      })
      .sort();
    expect(files).toEqual(contract);
  });

  it("the canonical form of a path", () => {
    expect(canonicalPath("/api/participant/answer")).toBe("/api/participant/answer");
    expect(canonicalPath("/api//participant/./x/../answer/")).toBe("/api/participant/answer");
    expect(canonicalPath("/api/participant/%61nswer")).toBe("/api/participant/answer");
    expect(canonicalPath("/api/images/a%2Fb")).toBe("/api/images/a%2Fb");
    expect(canonicalPath("/../..")).toBe("/");
    expect(canonicalPath("\\api\\participant\\answer")).toBe("/api/participant/answer");
  });

  it("refuses or redirects participant paths only", () => {
    expect(participantPathRefusal("POST", "/api/participant/answer")).toBeNull();
    expect(participantPathRefusal("GET", "/s/abc/session")).toBeNull();
    expect(participantPathRefusal("GET", "/s/AbC")).toBeNull(); // a slug keeps its case (and is checked elsewhere)
    expect(participantPathRefusal("GET", "/admin/")).toBeNull();
    expect(participantPathRefusal("POST", "/api/participant/answer/")).toEqual({ kind: "not-found" });
    expect(participantPathRefusal("GET", "/s/abc/")).toEqual({ kind: "redirect", location: "/s/abc" });
    expect(participantPathRefusal("GET", "/s/abc/Session")).toEqual({ kind: "not-found" });
    expect(participantPathRefusal("GET", "/Api/images/x")).toEqual({ kind: "not-found" });
    // Next's router also tries the decoded path, where an escaped slash or backslash names a participant handler.
    for (const path of ["/api/participant%2Fanswer", "/api%2fparticipant%2Fsession", "/api%5Cparticipant%5Canswer"])
      expect(participantPathRefusal("POST", path), path).toEqual({ kind: "not-found" });
    expect(participantPathRefusal("GET", "/api/images/a%2Fb")).toEqual({ kind: "not-found" });
    expect(participantPathRefusal("GET", "/admin%2Fstudies")).toBeNull();
  });
});
