import { z } from "zod";

/**
 * The participant API: every route's address, method, request body and response, in one module the route handlers
 * (lib/server/participant-api/) and the browser (components/study/) both use. Pure: no server or React code, so the
 * browser bundle carries the same schemas the server validates with.
 */

/** Device metadata the browser reports before and at consent (viewport, pixel ratio, user agent, pointer type). */
export const DeviceInfoSchema = z.object({
  viewportWidth: z.number().int().min(0).max(100_000),
  viewportHeight: z.number().int().min(0).max(100_000),
  screenWidth: z.number().int().min(0).max(100_000).optional(),
  screenHeight: z.number().int().min(0).max(100_000).optional(),
  devicePixelRatio: z.number().min(0).max(20),
  // PostgreSQL jsonb cannot hold U+0000; refusing it here gives a located 422 instead of a failed insert.
  userAgent: z.string().max(1000).refine((s) => !s.includes("\u0000"), "must not contain NUL characters"),
  pointer: z.enum(["fine", "coarse", "none"]),
  webgl: z.boolean().optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

/** POST /api/participant/consent: accept (assigns the items) or decline. */
export const ConsentBodySchema = z.object({ accept: z.boolean(), device: DeviceInfoSchema.nullable().default(null) });
export type ConsentBody = z.input<typeof ConsentBodySchema>;

/** POST /api/participant/device: before consent, in a study that takes desktops only. */
export const DeviceBodySchema = z.object({ device: DeviceInfoSchema });
export type DeviceBody = z.input<typeof DeviceBodySchema>;

/** POST /api/participant/shown: the question itself is on screen. */
export const ShownBodySchema = z.object({ assignmentId: z.string().min(1).max(64) }).strict();
export type ShownBody = z.input<typeof ShownBodySchema>;

/** Camera samples pushed by the 3D view (throttled there): time, orientation quaternion, distance. */
export const CameraSampleSchema = z.object({ t: z.number(), q: z.tuple([z.number(), z.number(), z.number(), z.number()]), d: z.number() });
export type CameraSample = z.infer<typeof CameraSampleSchema>;

export const InteractionEventSchema = z.object({ t: z.number(), type: z.string().max(40), detail: z.string().max(200).optional() });
export type InteractionEvent = z.infer<typeof InteractionEventSchema>;

/** Interaction log: camera path samples and widget events, bounded in size. */
export const InteractionLogSchema = z
  .object({
    camera: z.array(CameraSampleSchema).max(5000).optional(),
    events: z.array(InteractionEventSchema).max(2000).optional(),
    imageZooms: z.number().int().min(0).max(10_000).optional(),
    /** The browser window when the answer was given (participants resize windows and turn phones). */
    viewport: z.object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) }).optional(),
  })
  .strict();
export type InteractionLog = z.infer<typeof InteractionLogSchema>;

/** POST /api/participant/answer: one answer, scored and stored on the server (idempotent by its key). */
export const AnswerBodySchema = z.object({
  assignmentId: z.string().min(1).max(64),
  answer: z.string().max(4000),
  idempotencyKey: z.string().min(8).max(100),
  rtClientMs: z.number().int().min(0).max(24 * 3600 * 1000).nullable().optional(),
  timedOut: z.boolean().optional(),
  interactionLog: InteractionLogSchema.optional(),
});
export type AnswerBody = z.input<typeof AnswerBodySchema>;

/** An item image's opaque id as it appears in /api/images/:id (anything else is a 404 without a database read). */
export const ImageIdSchema = z.string().regex(/^[a-z0-9]{10,40}$/i);

/** Error responses of every participant route (an image's 401/404 are plain text, see PARTICIPANT_API.image). */
export const ApiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Addresses of the participant routes. */
export const PARTICIPANT_API = {
  session: { method: "GET", path: "/api/participant/session" },
  consent: { method: "POST", path: "/api/participant/consent" },
  device: { method: "POST", path: "/api/participant/device" },
  primer: { method: "POST", path: "/api/participant/primer" },
  shown: { method: "POST", path: "/api/participant/shown" },
  answer: { method: "POST", path: "/api/participant/answer" },
  scene: { method: "GET", path: (assignmentId: string) => `/api/participant/scene/${encodeURIComponent(assignmentId)}` },
  image: { method: "GET", path: (imageId: string) => `/api/images/${encodeURIComponent(imageId)}` },
} as const;
