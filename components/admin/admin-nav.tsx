import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import type { StaffUser } from "@/lib/server/auth";

const LINKS: Array<{ href: string; label: string; adminOnly?: boolean }> = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/studies", label: "Studies" },
  { href: "/admin/pools", label: "Pools" },
  { href: "/admin/items", label: "Items" },
  { href: "/admin/results", label: "Results" },
  { href: "/admin/models", label: "Models" },
  { href: "/admin/import", label: "Import", adminOnly: true },
  { href: "/admin/users", label: "Users", adminOnly: true },
];

/** Top navigation for staff pages. Links a role may not use are hidden; the pages check the role themselves. */
export function AdminNav({ user }: { user: StaffUser }) {
  return (
    <header className="border-b border-slate-300 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-6 py-3">
        <nav aria-label="Staff" className="flex flex-wrap items-center gap-1 text-sm">
          <span className="mr-3 font-semibold">MiSI baseline</span>
          {LINKS.filter((l) => !l.adminOnly || user.role === "admin").map((l) => (
            <Link
              key={l.href}
              href={l.href}
              className="rounded px-2 py-1 text-slate-800 hover:bg-slate-100 hover:underline"
            >
              {l.label}
            </Link>
          ))}
        </nav>
        <div className="flex items-center gap-3 text-sm">
          <span>
            {user.email} <span className="rounded bg-slate-200 px-2 py-0.5">{user.role}</span>
          </span>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
