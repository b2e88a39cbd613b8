import type { ReactNode } from "react";

const WIDTHS = { narrow: "max-w-4xl", medium: "max-w-5xl", wide: "max-w-6xl" } as const;

/** The frame of an admin page: one centred column with the page padding; forms read best narrow, tables wide. */
export function AdminPage({ width = "wide", children }: { width?: keyof typeof WIDTHS; children: ReactNode }) {
  return <main className={`mx-auto ${WIDTHS[width]} px-6 py-8`}>{children}</main>;
}
