import "server-only";
import { cache } from "react";
import type { AuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { getAuthSecret } from "@/lib/server/secrets";
import { AppError } from "@/lib/server/errors";
import { StaffEmailSchema } from "@/lib/staff-email";
import { env } from "@/lib/server/env";
import { verifySignIn } from "@/lib/server/sign-in";
import { clientAddressFrom } from "@/lib/http-security";
import type { StaffRole } from "@/types/staff-role";

export type { StaffRole } from "@/types/staff-role";

// Sign-in accepts any address the shared rule accepts (admin@localhost included), so every account that can be created can sign in.
const CredentialsSchema = z.object({ email: StaffEmailSchema, password: z.string().min(1).max(200) });

/** The client address of a next-auth request (its headers as a plain object). */
function clientAddress(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.["x-forwarded-for"];
  return clientAddressFrom(typeof forwarded === "string" ? forwarded : null, env.TRUSTED_PROXY_HOPS);
}

// Without NEXTAUTH_URL next-auth sends its redirects (sign-out, failed sign-in, /api/auth/signin) to
// http://localhost:3000 whatever port `next dev` listens on. In development they follow the host the browser used
// (PORT=3001, 127.0.0.1) instead; production sets NEXTAUTH_URL (docs/configuration.md).
if (!env.NEXTAUTH_URL && env.NODE_ENV === "development") process.env.AUTH_TRUST_HOST ??= "1";

/** Built per request so a missing production secret fails the request, not the build. */
export function getAuthOptions(): AuthOptions {
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const parsed = CredentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          // A thrown error's message reaches the sign-in form (next-auth puts it in ?error=).
          return verifySignIn({ ...parsed.data, address: clientAddress(req?.headers) });
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user && "role" in user) {
          token.role = user.role as StaffRole;
          token.signedInAt = Date.now();
        }
        return token;
      },
      session({ session, token }) {
        if (session.user) {
          session.user.id = token.sub ?? "";
          session.user.role = token.role as StaffRole;
          session.user.signedInAt = token.signedInAt ?? 0;
        }
        return session;
      },
    },
  };
}

export interface StaffUser {
  id: string;
  email: string;
  role: StaffRole;
}

/**
 * The signed-in researcher/admin for this request, or null. Re-checks the account in the database on every request:
 * a disabled account's sessions stop at once, and a session that began before the account's last disabling stays
 * dead after it is enabled again (only a new sign-in works).
 */
export const getStaffUser = cache(async (): Promise<StaffUser | null> => {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await db.user.findUnique({
    where: { id },
    select: { id: true, email: true, role: true, disabled: true },
  });
  if (!user || user.disabled) return null;
  const lastDisabled = await db.auditLog.findFirst({
    where: { entityType: "user", entityId: id, action: "user.disable" },
    orderBy: { at: "desc" },
    select: { at: true },
  });
  if (lastDisabled && lastDisabled.at.getTime() >= (session.user?.signedInAt ?? 0)) return null;
  return { id: user.id, email: user.email, role: user.role };
});

/** Returns the signed-in user if their role is allowed (admins may do anything researchers may), else throws 401/403. */
export async function requireRole(role: StaffRole): Promise<StaffUser> {
  const user = await getStaffUser();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in as a researcher or admin.");
  if (role === "admin" && user.role !== "admin") throw new AppError("FORBIDDEN", "This needs the admin role.");
  return user;
}
