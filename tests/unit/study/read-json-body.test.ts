import { describe, expect, it } from "vitest";
import { readParticipantJsonBody as readJsonBody } from "@/lib/server/read-json-body";

function streamed(parts: string[]): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
  // No Content-Length: a chunked upload must be counted while it streams.
  return new Request("http://localhost/api/participant/answer", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
}

describe("readJsonBody", () => {
  it("parses a body within the limit", async () => {
    await expect(readJsonBody(streamed(['{"answer":', '"move x 1"}']), 100)).resolves.toEqual({ answer: "move x 1" });
  });

  it("refuses a chunked body over the limit with a clear error", async () => {
    const chunk = `"${"x".repeat(60)}",`;
    await expect(readJsonBody(streamed(["[", chunk, chunk, '"end"]']), 100)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: "The request body is larger than 100 bytes.",
    });
  });

  it("refuses a declared Content-Length over the limit without reading", async () => {
    const request = new Request("http://localhost/x", {
      method: "POST",
      body: "{}",
      headers: { "content-length": "5000000" },
    });
    await expect(readJsonBody(request, 100)).rejects.toMatchObject({
      message: "The request body is larger than 100 bytes.",
    });
  });

  it("says so when the body is not JSON or missing", async () => {
    await expect(readJsonBody(streamed(["{not json"]), 100)).rejects.toMatchObject({
      message: "The request body is not valid JSON.",
    });
    await expect(readJsonBody(new Request("http://localhost/x", { method: "POST" }), 100)).rejects.toMatchObject({
      message: "The request has no JSON body.",
    });
  });

  it("refuses a NUL character in a value or a key (PostgreSQL cannot store it; it was a 500)", async () => {
    await expect(readJsonBody(streamed(['{"answer":"move x 1\\u0000"}']), 100)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "The request body contains a NUL character (in 'answer').",
    });
    await expect(readJsonBody(streamed(['{"a\\u0000":1}']), 100)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(readJsonBody(streamed(['["\\u0000"]']), 100)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
  });

  it("reads the text of an escaped backslash before u0000 as text, and a raw NUL byte as invalid JSON", async () => {
    await expect(readJsonBody(streamed(['{"answer":"C:\\\\u0000"}']), 100)).resolves.toEqual({ answer: "C:\\u0000" });
    await expect(readJsonBody(streamed(['{"answer":"a\0b"}']), 100)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "The request body is not valid JSON.",
    });
  });
});
