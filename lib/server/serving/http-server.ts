import "server-only";
import http from "node:http";
import type { Duplex } from "node:stream";
import { BASE_SECURITY_HEADERS } from "@/lib/http-security";
import type { NodeHandler } from "@/lib/server/serving/front";

/**
 * The node:http server of `npm start` around the front handler: a throw becomes a 500 in the API's error shape, and a
 * request Node's parser refuses before any handler runs (a method it does not know, such as TRACK; a malformed request
 * line; headers too large) gets its status with the security headers and a JSON error instead of Node's bare one.
 */
export function createFrontServer(front: NodeHandler): http.Server {
  const server = http.createServer((req, res) => {
    Promise.resolve(front(req, res)).catch((err) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: "INTERNAL", message: "Something went wrong on the server." } }));
    });
  });
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    socket.end(parserRefusal(err.code));
  });
  // Keep-alive longer than a reverse proxy's (nginx: 60 s upstream keepalive_timeout), so it never reuses a closed socket.
  server.keepAliveTimeout = 65_000;
  return server;
}

/** The raw response to a request Node's parser refused (the statuses Node itself would send, plus 405 for an unknown method). */
function parserRefusal(code: string | undefined): string {
  const [status, errorCode, message] =
    code === "HPE_INVALID_METHOD"
      ? [405, "METHOD_NOT_ALLOWED", "This method is not supported."]
      : code === "HPE_HEADER_OVERFLOW"
        ? [431, "BAD_REQUEST", "The request headers are too large."]
        : code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "REQUEST_TIMEOUT", "The request did not arrive in time."]
          : [400, "BAD_REQUEST", "The request is malformed."];
  const body = JSON.stringify({ error: { code: errorCode, message } });
  const headers: Record<string, string> = {
    ...BASE_SECURITY_HEADERS,
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    ...(status === 405 ? { Allow: "GET, HEAD, POST" } : {}),
    Connection: "close",
    "Content-Length": String(Buffer.byteLength(body)),
  };
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n${body}`;
}
