import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import type { AnswerWidget } from "@/lib/tasks/types";
import { AnswerSignalsSchema } from "@/lib/participant/integrity";

/**
 * The participant API: every route's address, method, request body and response, in one module the route handlers
 * (lib/server/participant-flow/routes/) and the browser (components/study/) both use. Pure: no server or React code, so the
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
  userAgent: z
    .string()
    .max(1000)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters"),
  pointer: z.enum(["fine", "coarse", "none"]),
  webgl: z.boolean().optional(),
  /** The browser's time zone at entry: minutes east of UTC (UTC+2 → 120, UTC−5 → −300), so local times can be derived. */
  utcOffsetMin: z.number().int().min(-1440).max(1440).optional(),
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
export const CameraSampleSchema = z.object({
  t: z.number(),
  q: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  d: z.number(),
});
export type CameraSample = z.infer<typeof CameraSampleSchema>;

export const InteractionEventSchema = z.object({
  t: z.number(),
  type: z.string().max(40),
  detail: z.string().max(200).optional(),
});
export type InteractionEvent = z.infer<typeof InteractionEventSchema>;

/** Interaction log: camera path samples and widget events, bounded in size. */
export const InteractionLogSchema = z
  .object({
    camera: z.array(CameraSampleSchema).max(5000).optional(),
    events: z.array(InteractionEventSchema).max(2000).optional(),
    imageZooms: z.number().int().min(0).max(10_000).optional(),
    /** The browser window when the answer was given (participants resize windows and turn phones). */
    viewport: z
      .object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) })
      .optional(),
  })
  .strict();
export type InteractionLog = z.infer<typeof InteractionLogSchema>;

/** POST /api/participant/answer: one answer, scored and stored on the server (idempotent by its key). */
export const AnswerBodySchema = z
  .object({
    assignmentId: z.string().min(1).max(64),
    /** The question's item (its public id): lets the server store the answer without reading first. Checked there. */
    itemId: z.string().min(1).max(64).optional(),
    answer: z.string().max(4000),
    idempotencyKey: z.string().min(8).max(100),
    rtClientMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600 * 1000)
      .nullable()
      .optional(),
    timedOut: z.boolean().optional(),
    interactionLog: InteractionLogSchema.optional(),
    /** Integrity signals measured in the browser while the question was open (lib/participant/integrity.ts). */
    signals: AnswerSignalsSchema.optional(),
  })
  // A field the app never sends ("isCorrect", "score") is a tampered body: refused with its name, not ignored.
  .strict();
export type AnswerBody = z.input<typeof AnswerBodySchema>;

/** An item image's opaque id as it appears in /api/images/:id (anything else is a 404 without a database read). */
export const ImageIdSchema = z.string().regex(/^[a-z0-9]{10,40}$/i);

/** Error responses of every participant route (an image's 401/404 are plain text, see PARTICIPANT_API.image). */
export const ApiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

// ---- Responses -------------------------------------------------------------------------------------------------

/**
 * One image of an item as the participant's browser knows it: an opaque id and a caption; `url`, a signed address
 * (untimed studies, lib/server/image-url.ts), else the browser uses PARTICIPANT_API.image.path(id).
 */
export const PublicImageSchema = z.object({
  id: z.string(),
  position: z.number(),
  caption: z.string(),
  url: z.string().optional(),
});
export type PublicImage = z.infer<typeof PublicImageSchema>;

/** What a participant's browser may receive about an item. Never the gold answer or distractor provenance. */
export const PublicItemSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  taskVersion: z.number(),
  question: z.string(),
  payload: z.unknown(),
  images: z.array(PublicImageSchema),
});
export type PublicItem = z.infer<typeof PublicItemSchema>;

/** The task's answer widget (lib/tasks/types.ts: the registry builds it, the browser only renders it). */
const AnswerWidgetSchema = z.custom<AnswerWidget>(
  (v) => !!v && typeof v === "object" && typeof (v as { type?: unknown }).type === "string",
  "an answer widget",
);

export const CurrentQuestionSchema = z.object({
  assignmentId: z.string(),
  position: z.number(),
  phase: z.enum(["practice", "main", "attention"]),
  item: PublicItemSchema,
  task: z.object({
    id: z.string(),
    label: z.string(),
    instructions: z.string(),
    widget: AnswerWidgetSchema,
    format: z.string(),
  }),
  /** Set when the participant is in the interactive condition and the item has a 3D scene. */
  interactive: z.object({ allowRotate: z.boolean(), allowZoom: z.boolean() }).nullable(),
  /** Already reported shown (its clock runs): after a reload the browser goes straight back to it. */
  alreadyShown: z.boolean(),
  /**
   * A question of this task was already answered in this session (sent by the session read): its instructions were
   * read, so a reload or another browser goes straight to the question. An untimed study has no "shown" stamp to say it.
   */
  taskAnswered: z.boolean().optional(),
});
export type CurrentQuestion = z.infer<typeof CurrentQuestionSchema>;

/** GET /api/participant/session (and consent, device): everything the browser needs for its current screen. */
export const SessionSchema = z.object({
  participant: z.object({ id: z.string(), status: z.string(), condition: z.string(), consented: z.boolean() }),
  study: z.object({
    name: z.string(),
    slug: z.string(),
    consentText: z.string(),
    declineMessage: z.string(),
    timeLimitSec: z.number().nullable(),
    hbondPrimer: z.boolean(),
    deviceRule: z.enum(["any", "desktop"]),
    tasks: z.array(z.object({ id: z.string(), label: z.string(), instructions: z.string() })),
  }),
  progress: z.object({ answered: z.number(), total: z.number(), practiceTotal: z.number() }),
  hbondPrimerSeen: z.boolean(),
  current: CurrentQuestionSchema.nullable(),
  /** Image ids of the next question, fetched ahead while this one is answered (always empty in a timed study). */
  upcomingImageIds: z.array(z.string()),
  /** Their signed addresses, in the same order (added by the participant routes; empty in a timed study). */
  upcomingImageUrls: z.array(z.string()).optional(),
  completion: z.object({ code: z.string().nullable(), url: z.string().nullable() }).nullable(),
  screenedOut: z.object({ message: z.string(), returnUrl: z.string().nullable() }).nullable(),
  /** Not started and the study cannot take this participant: told before consenting. */
  noWork: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

/** What changes after an answer: everything but the study's texts, which the browser already has. */
export const SessionUpdateSchema = SessionSchema.pick({
  participant: true,
  progress: true,
  current: true,
  upcomingImageIds: true,
  upcomingImageUrls: true,
  completion: true,
  screenedOut: true,
  noWork: true,
});
export type SessionUpdate = z.infer<typeof SessionUpdateSchema>;

/** What the participant may learn after submitting: never the score of a main item. */
export const SubmitResultSchema = z.object({
  status: z.enum(["stored", "duplicate"]),
  practiceFeedback: z.object({ correct: z.boolean(), correctAnswer: z.string() }).nullable(),
  ended: z.enum(["completed", "screened_out"]).nullable(),
});
export type SubmitResult = z.infer<typeof SubmitResultSchema>;

/** POST /api/participant/answer: the outcome and what the browser shows next. */
export const AnswerResponseSchema = z.object({ result: SubmitResultSchema, update: SessionUpdateSchema });
export type AnswerResponse = z.infer<typeof AnswerResponseSchema>;

/** POST /api/participant/shown: the stamp and the deadline on the server's clock (ISO times). */
export const QuestionClockSchema = z.object({
  assignmentId: z.string(),
  shownAt: z.string(),
  serverNow: z.string(),
  timeLimitSec: z.number().nullable(),
  deadline: z.string().nullable(),
});
export type QuestionClock = z.infer<typeof QuestionClockSchema>;

/** POST /api/participant/primer. */
export const PrimerResponseSchema = z.object({ ok: z.literal(true) });

/** GET /api/participant/scene/:assignmentId: the interactive scene (first view only). */
export const SceneResponseSchema = Scene3dSchema;

/**
 * The largest request body each POST route reads (413 beyond), sized from its schema's caps: anyone can get a
 * participant cookie from an open study link, and every byte admitted is parsed on the server's main thread.
 * - answer: at the schema's caps a body is ~0.89 MB (5000 camera samples as the 3D view rounds them, ≤ 66 bytes each;
 *   2000 events with 200-character details; a 4000-character answer; tests/unit/participant/body-limits.test.ts
 *   builds it), a typical one a few KB. 1 MiB keeps the longest legitimate interaction log.
 * - consent, device: device metadata, its user agent at most 1000 characters (≤ 6 bytes each in JSON: a control character is written `\u0000`-style).
 * - shown: one assignment id; primer: no body is read (the browser sends `{}`).
 */
export const PARTICIPANT_BODY_LIMITS = {
  consent: 8 * 1024,
  device: 8 * 1024,
  primer: 1024,
  shown: 1024,
  answer: 1024 * 1024,
} as const;

/** Addresses of the participant routes. */
export const PARTICIPANT_API = {
  session: { method: "GET", path: "/api/participant/session", response: SessionSchema },
  consent: {
    method: "POST",
    path: "/api/participant/consent",
    body: ConsentBodySchema,
    maxBodyBytes: PARTICIPANT_BODY_LIMITS.consent,
    response: SessionSchema,
  },
  device: {
    method: "POST",
    path: "/api/participant/device",
    body: DeviceBodySchema,
    maxBodyBytes: PARTICIPANT_BODY_LIMITS.device,
    response: SessionSchema,
  },
  /** No body is read. */
  primer: {
    method: "POST",
    path: "/api/participant/primer",
    maxBodyBytes: PARTICIPANT_BODY_LIMITS.primer,
    response: PrimerResponseSchema,
  },
  shown: {
    method: "POST",
    path: "/api/participant/shown",
    body: ShownBodySchema,
    maxBodyBytes: PARTICIPANT_BODY_LIMITS.shown,
    response: QuestionClockSchema,
  },
  answer: {
    method: "POST",
    path: "/api/participant/answer",
    body: AnswerBodySchema,
    maxBodyBytes: PARTICIPANT_BODY_LIMITS.answer,
    response: AnswerResponseSchema,
  },
  scene: {
    method: "GET",
    path: (assignmentId: string) => `/api/participant/scene/${encodeURIComponent(assignmentId)}`,
    response: SceneResponseSchema,
  },
  /** The image bytes with their own Content-Type; 401/404 are plain text, a timed study's refusal a 409 ApiError. */
  image: { method: "GET", path: (imageId: string) => `/api/images/${encodeURIComponent(imageId)}` },
} as const;
