"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => signOut({ callbackUrl: "/" })}
      className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
    >
      Sign out
    </button>
  );
}
