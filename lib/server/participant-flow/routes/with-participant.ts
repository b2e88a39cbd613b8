import "server-only";
import type { z } from "zod";
import { hasNulByte, hasUndecodablePath } from "@/lib/http-security";
import { errorResponse } from "@/lib/server/api-response";
import { withDbRetry } from "@/lib/server/db-retry";
import { AppError } from "@/lib/server/errors";
import { participantFromRequest } from "@/lib/server/participant-flow/token";
import { readParticipantJsonBody } from "@/lib/server/read-json-body";
import type { RequestLike } from "@/lib/server/request-like";
import { assertSameOrigin } from "@/lib/server/same-origin";

/** The participant a request's signed cookie names. */
export interface ParticipantIdentity {
  participantId: string;
  studyId: string;
}

/**
 * What a participant route's own code answers: a web Response, or a JSON body with its status and headers, which the
 * custom server's front serialises itself (lib/server/serving/node-http.ts, sendJsonReply) and Next's face of the
 * handler turns into `Response.json` (replyResponse): one answer, two ways of writing it.
 */
export interface JsonReply {
  readonly json: unknown;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}
export type ParticipantReply = Response | JsonReply;

/** A JsonReply as the web Response it stands for. */
export function replyResponse(reply: ParticipantReply): Response {
  return reply instanceof Response
    ? reply
    : Response.json(reply.json, { status: reply.status ?? 200, ...(reply.headers ? { headers: reply.headers } : {}) });
}

/**
 * A participant route handler: a request in, a web Response out. Next's route files re-export it (Next passes
 * `{ params: Promise<P> }`); any other server passes the params as a plain object. `reply` is the same handler
 * without the last step, for a server that writes a JsonReply itself (the custom server's front).
 */
export type ParticipantHandler<P = Record<string, never>> = ((
  request: RequestLike,
  context?: { params: P | Promise<P> },
) => Promise<Response>) & { reply: (request: RequestLike, params: P) => Promise<ParticipantReply> };

/** A handler's two faces from its `reply`. */
function participantHandler<P>(
  reply: (request: RequestLike, params: P) => Promise<ParticipantReply>,
): ParticipantHandler<P> {
  const web = async (request: RequestLike, context?: { params: P | Promise<P> }) => {
    const answer = await reply(request, ((await context?.params) ?? {}) as P);
    try {
      return replyResponse(answer);
    } catch (err) {
      // A reply that does not serialise is the handler's error, answered as its others are.
      return errorResponse(err);
    }
  };
  return Object.assign(web, { reply });
}

export interface ParticipantCall<P, B> {
  request: RequestLike;
  params: P;
  participant: ParticipantIdentity;
  body: B;
}

/**
 * Wraps a participant route: refuses NUL bytes or malformed percent-encodings in the URL (400) and cross-origin
 * state-changing requests (403), reads the participant from the request's Cookie header (401 without a valid one),
 * reads and validates the JSON body against `body` (413 beyond `maxBodyBytes`, 422), then runs `run` with transient database faults
 * retried (a dropped connection re-runs it: every participant operation is a read, keyed or conditional) and maps
 * errors to JSON (lib/server/api-response.ts). Needs no Next request context.
 */
export function withParticipant<P = Record<string, never>, S extends z.ZodType | undefined = undefined>(
  options: { body?: S; maxBodyBytes?: number },
  run: (call: ParticipantCall<P, S extends z.ZodType ? z.output<S> : undefined>) => Promise<ParticipantReply>,
): ParticipantHandler<P> {
  const { body: schema, maxBodyBytes } = options;
  if (schema && maxBodyBytes === undefined)
    throw new Error("withParticipant: a route that reads a body needs its limit (PARTICIPANT_BODY_LIMITS).");
  return participantHandler<P>(async (request, params) => {
    try {
      checkRequestLine(request);
      const participant = participantFromRequest(request);
      if (!participant) throw new AppError("UNAUTHENTICATED", "No participant session: open the study link again.");
      const body = (
        schema ? schema.parse(await readParticipantJsonBody(request, maxBodyBytes!)) : undefined
      ) as S extends z.ZodType ? z.output<S> : undefined;
      return await withDbRetry(() => run({ request, params, participant, body }));
    } catch (err) {
      return errorResponse(err);
    }
  });
}

/**
 * As withParticipant for a route that also serves callers without a participant session (item images: staff
 * previews): `participant` is null then, and `run` decides.
 */
export function withOptionalParticipant<P = Record<string, never>>(
  run: (call: {
    request: RequestLike;
    params: P;
    participant: ParticipantIdentity | null;
  }) => Promise<ParticipantReply>,
): ParticipantHandler<P> {
  return participantHandler<P>(async (request, params) => {
    try {
      checkRequestLine(request);
      return await withDbRetry(() => run({ request, params, participant: participantFromRequest(request) }));
    } catch (err) {
      return errorResponse(err);
    }
  });
}

function checkRequestLine(request: RequestLike): void {
  if (hasNulByte(request.url)) throw new AppError("BAD_REQUEST", "The address contains a NUL character.");
  if (hasUndecodablePath(request.url))
    throw new AppError("BAD_REQUEST", "The address contains a malformed percent-encoding.");
  assertSameOrigin(request);
}
