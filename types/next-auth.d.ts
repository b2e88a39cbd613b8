import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user?: DefaultSession["user"] & { id: string; role: "admin" | "researcher"; signedInAt: number };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: "admin" | "researcher";
    /** Epoch ms of the password sign-in that created this session (kept across token refreshes, unlike iat). */
    signedInAt?: number;
  }
}
