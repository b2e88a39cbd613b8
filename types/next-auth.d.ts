import type { DefaultSession } from "next-auth";
import type { StaffRole } from "@/types/staff-role";

declare module "next-auth" {
  interface Session {
    user?: DefaultSession["user"] & { id: string; role: StaffRole; signedInAt: number };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: StaffRole;
    /** Epoch ms of the password sign-in that created this session (kept across token refreshes, unlike iat). */
    signedInAt?: number;
  }
}
