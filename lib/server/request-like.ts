/**
 * What the app's request-handling code reads of a request. A web Request (Next's, a test's) has all of it; the custom
 * server's front passes a lighter object built from the Node request (lib/server/serving/node-http.ts, frontRequest)
 * with the body it has already read, instead of constructing a web Request per participant request, which was a
 * tenth of an instance's CPU per answer.
 */
export interface RequestLike {
  /** Absolute, as a web Request serialises it. */
  readonly url: string;
  readonly method: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** The whole body, when the server read it before the handler ran; the handler then reads this, not `body`. */
  readonly bodyBytes?: Buffer;
}
