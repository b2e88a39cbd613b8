import type { Metadata } from "next";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { requirePageRole } from "@/lib/server/guards";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

export default async function AdminHomePage() {
  const user = await requirePageRole("researcher", "/admin");
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <header className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Dashboard</h1>
        <div className="flex items-center gap-3 text-sm">
          <span>
            {user.email} <span className="rounded bg-slate-200 px-2 py-0.5">{user.role}</span>
          </span>
          <SignOutButton />
        </div>
      </header>
    </main>
  );
}
