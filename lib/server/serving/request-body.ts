import type { IncomingMessage } from "node:http";

export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: "too-large" | "timeout" | "aborted" };

/**
 * Reads a request body whole, before any of the request's work starts: at most `maxBytes` (a larger Content-Length is
 * refused without reading), within `deadlineMs` of the call. A client that sends its body slowly, or never finishes
 * it, holds only its own socket for that long, never a slot of the load shedder.
 */
export function readRequestBody(
  req: IncomingMessage,
  options: { maxBytes: number; deadlineMs: number },
): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"] ?? "");
  if (Number.isFinite(declared) && declared > options.maxBytes)
    return Promise.resolve({ ok: false, reason: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: BodyRead) => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onClose);
      // Whatever else arrives is not read: the refusal closes the connection (Connection: close).
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > options.maxBytes) return finish({ ok: false, reason: "too-large" });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, total) });
    const onAbort = () => finish({ ok: false, reason: "aborted" });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    const timer = setTimeout(() => finish({ ok: false, reason: "timeout" }), options.deadlineMs);
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onClose);
  });
}
