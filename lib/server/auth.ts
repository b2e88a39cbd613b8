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

export type StaffRole = "admin" | "researcher";

// Sign-in accepts any address the shared rule accepts (admin@localhost included), so every account that can be created can sign in.
const CredentialsSchema = z.object({ email: StaffEmailSchema, password: z.string().min(1).max(200) });

/** The client address of a next-auth request (its headers as a plain object). */
function clientAddress(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.["x-forwarded-for"];
  return clientAddressFrom(typeof forwarded === "string" ? forwarded : null, env.TRUSTED_PROXY_HOPS);
}

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
        if (user && "role" in user) token.role = user.role as StaffRole;
        return token;
      },
      session({ session, token }) {
        if (session.user) {
          session.user.id = token.sub ?? "";
          session.user.role = token.role as StaffRole;
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

/** The signed-in researcher/admin for this request, or null. Re-checks the account in the database. */
export const getStaffUser = cache(async (): Promise<StaffUser | null> => {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await db.user.findUnique({ where: { id }, select: { id: true, email: true, role: true, disabled: true } });
  return user && !user.disabled ? { id: user.id, email: user.email, role: user.role } : null;
});

/** Returns the signed-in user if their role is allowed (admins may do anything researchers may), else throws 401/403. */
export async function requireRole(role: StaffRole): Promise<StaffUser> {
  const user = await getStaffUser();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in as a researcher or admin.");
  if (role === "admin" && user.role !== "admin") throw new AppError("FORBIDDEN", "This needs the admin role.");
  return user;
}
