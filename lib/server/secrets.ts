import "server-only";
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { env } from "@/lib/server/env";

const DEV_SECRET_FILE = path.join(".data", "dev-secret");

/**
 * The secret that signs researcher sessions and participant tokens. Production requires NEXTAUTH_SECRET;
 * in development a random secret is generated once into .data/dev-secret (never a fixed default).
 */
export function getAuthSecret(): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  if (env.NODE_ENV === "production")
    throw new Error("NEXTAUTH_SECRET must be set in production (at least 16 characters).");
  return ensureDevSecret();
}

/** Creates .data/dev-secret if missing and returns it. */
export function ensureDevSecret(): string {
  if (fs.existsSync(DEV_SECRET_FILE)) return fs.readFileSync(DEV_SECRET_FILE, "utf8").trim();
  fs.mkdirSync(path.dirname(DEV_SECRET_FILE), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  fs.writeFileSync(DEV_SECRET_FILE, secret, { mode: 0o600 });
  return secret;
}
