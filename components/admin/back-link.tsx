import Link from "next/link";
import type { ReactNode } from "react";

/** The link above a page's title back to the page it belongs to ("← Studies"). */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <p className="text-sm">
      <Link href={href} className="underline">
        ← {children}
      </Link>
    </p>
  );
}
