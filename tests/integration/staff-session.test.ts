import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { setUserDisabled } from "@/lib/server/dal/users/set-user-disabled";
import { uniqueSuffix } from "./admin-fixtures";
import type { StaffRole } from "@/types/staff-role";

// The session cookie is decoded by next-auth (not under test here); what getStaffUser does with it is.
const session = vi.hoisted(() => ({
  current: null as null | { user: { id: string; role: string; signedInAt: number } },
}));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getServerSession: async () => session.current,
}));

const { getAuthOptions, getStaffUser } = await import("@/lib/server/auth");

afterAll(async () => {
  await disconnectDb();
});

beforeEach(() => {
  session.current = null;
});

async function staff(role: StaffRole) {
  return db.user.create({ data: { email: `${role}-${uniqueSuffix()}@example.org`, role, passwordHash: "x" } });
}

describe("staff sessions and disabling", () => {
  it("the sign-in time is stamped into the token once and passed to the session", async () => {
    const { jwt, session: toSession } = getAuthOptions().callbacks!;
    const before = Date.now();
    const token = await jwt!({
      token: { sub: "u1" },
      user: { id: "u1", role: "researcher" } as never,
      account: null,
      trigger: "signIn",
    } as never);
    expect(token.signedInAt).toBeGreaterThanOrEqual(before);
    const refreshed = await jwt!({ token, trigger: "update" } as never);
    expect(refreshed.signedInAt).toBe(token.signedInAt);
    const s = await toSession!({ session: { user: {}, expires: "" }, token: refreshed } as never);
    expect((s as { user: { signedInAt: number; id: string } }).user).toMatchObject({
      id: "u1",
      signedInAt: token.signedInAt,
    });
  });

  it("a disabled account's session stops at once; after re-enabling, only a session begun later works", async () => {
    const admin = await staff("admin");
    const user = await staff("researcher");
    const signedInAt = Date.now() - 1000;
    session.current = { user: { id: user.id, role: "researcher", signedInAt } };
    expect(await getStaffUser()).toMatchObject({ id: user.id });

    await setUserDisabled({ user: user.id, input: { disabled: true }, actorId: admin.id });
    expect(await getStaffUser()).toBeNull();
    await setUserDisabled({ user: user.id, input: { disabled: false }, actorId: admin.id });
    expect(await getStaffUser()).toBeNull();

    session.current = { user: { id: user.id, role: "researcher", signedInAt: Date.now() + 1000 } };
    expect(await getStaffUser()).toMatchObject({ id: user.id, role: "researcher" });
  });

  it("an account never disabled keeps working with any session (and tokens from before the stamp existed)", async () => {
    const user = await staff("researcher");
    session.current = { user: { id: user.id, role: "researcher", signedInAt: 0 } };
    expect(await getStaffUser()).toMatchObject({ id: user.id });
  });
});
