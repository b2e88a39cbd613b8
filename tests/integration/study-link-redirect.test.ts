// Study links behind a reverse proxy: /s/<slug> must not send the participant to the server's own host name.
import { afterAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { disconnectDb } from "@/lib/server/db";
import { GET } from "@/app/s/[slug]/route";
import { createTranslationStudy } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

function proxied(url: string) {
  // What nginx forwards for https://study.example.org/...: the app itself listens on localhost:3000.
  return new NextRequest(url, {
    headers: {
      host: "study.example.org",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "study.example.org",
      "x-forwarded-for": "203.0.113.7",
    },
  });
}

describe("GET /s/<slug> behind a proxy", () => {
  it("redirects with a relative Location and sets the participant cookie", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2 });
    const res = await GET(
      proxied(`http://localhost:3000/s/${study.slug}?PROLIFIC_PID=p-proxy-1&STUDY_ID=s&SESSION_ID=1`),
      { params: Promise.resolve({ slug: study.slug }) },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/s/${study.slug}/session`);
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    // Resolved by the browser against the address it used: the proxy's public name, never localhost.
    expect(new URL(res.headers.get("location")!, "https://study.example.org/s/x").href).toBe(
      `https://study.example.org/s/${study.slug}/session`,
    );
  });

  it("sends an unknown or closed study to its status page, also relative", async () => {
    const res = await GET(proxied("http://localhost:3000/s/no-such-study"), {
      params: Promise.resolve({ slug: "no-such-study" }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/s\/no-such-study\/status\?kind=\w+$/);
  });

  it("answers a slug no study can have (a dot segment, as Next decodes /s/%2e%2e) 404 without a redirect", async () => {
    for (const slug of ["..", ".", "a/../b", "Demo", ""]) {
      const res = await GET(proxied(`http://localhost:3000/s/x?PROLIFIC_PID=p-dots`), {
        params: Promise.resolve({ slug }),
      });
      expect(res.status, slug).toBe(404);
      expect(res.headers.get("location"), slug).toBeNull();
      expect(await res.text(), slug).toContain("Study not found");
    }
  });
});
