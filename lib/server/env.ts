import "server-only";
import { z } from "zod";
import { parseTrustedProxyHops } from "@/lib/http-security";
import { parseTrustedProxyAddresses } from "@/lib/server/proxy-addresses";

/** Server environment, validated once. Every variable is documented in docs/configuration.md. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** PostgreSQL connection string; unset → the embedded PostgreSQL server (scripts/embedded-postgres.mts). */
  DATABASE_URL: z.string().url().optional(),
  /** Connections per server process to DATABASE_URL (two instances × 20 stay well under PostgreSQL's default 100). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(20),
  /** How long a request waits for a free pooled connection before failing (retried, then 503). */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Port of the embedded server (must match scripts/embedded-postgres.mts's DEFAULT_EMBEDDED_PORT). */
  EMBEDDED_DB_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Signs next-auth JWTs and participant session tokens. Required in production. */
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  NEXTAUTH_URL: z.string().url().optional(),
  /** New participants (and consents) allowed per 10 minutes per study from one client address (IPv6: one /64). */
  PARTICIPANT_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /** Never-consented participants kept per study; beyond it each new participant removes the earliest-joined one. */
  PARTICIPANT_PENDING_LIMIT_PER_STUDY: z.coerce.number().int().min(1).default(5000),
  /** Where item images are stored as files, with their gzip and brotli forms (lib/server/image-store.ts); nginx serves this folder. */
  IMAGE_STORE_DIR: z.string().min(1).optional(),
  /**
   * Signs participant image links (lib/image-link.ts); nginx's config holds the same value (scripts/render-nginx.mjs).
   * Unset: derived from NEXTAUTH_SECRET, enough when the app serves its images itself.
   */
  IMAGE_URL_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,200}$/, "32 to 200 letters, digits, '-' or '_' (it goes into nginx's config verbatim)")
    .optional(),
  /** Load shedding (lib/server/load-shed.ts): participant requests in progress per process before new ones get 503. */
  SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Participant requests in progress from one client address (IPv6: one /64) per process; beyond it 429 + Retry-After. */
  PARTICIPANT_IN_FLIGHT_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(32),
  /** Load shedding: event-loop delay (ms, recent maximum) above which new participant requests get 503. */
  SHED_MAX_LAG_MS: z.coerce.number().int().min(1).max(60_000).default(2000),
  /** Load shedding: after start, participant requests beyond a small allowance get 503 for this long (ms) while the process warms up. */
  SHED_WARMUP_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /**
   * The addresses (and CIDR ranges) of the proxies whose X-Forwarded-For is believed, when TRUSTED_PROXY_HOPS > 0: a
   * request from any other peer (the app port reached directly) counts as its socket address. Default: loopback.
   */
  TRUSTED_PROXY_ADDRESSES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseTrustedProxyAddresses(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** Reverse proxies in front of the app that append to X-Forwarded-For; 0: none, the socket address is the client. */
  TRUSTED_PROXY_HOPS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseTrustedProxyHops(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
});

export type Env = z.infer<typeof EnvSchema>;

function loadEnv(): Env {
  const raw = Object.fromEntries(Object.entries(process.env).map(([k, v]) => [k, v === "" ? undefined : v]));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  return parsed.data;
}

export const env = loadEnv();

/** True when no DATABASE_URL is configured and the app talks to the embedded server. */
export const usesEmbeddedDb = !env.DATABASE_URL;
/** The one connection string every process uses: DATABASE_URL, else the embedded server's. */
export const databaseUrl = env.DATABASE_URL ?? `postgresql://postgres@127.0.0.1:${env.EMBEDDED_DB_PORT}/misi`;
