import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getResultsData } from "@/lib/server/dal/results/get-results-page";
import { getShortcutAudit } from "@/lib/server/dal/items/get-shortcut-audit";
import { AppError } from "@/lib/server/errors";
import { requirePageRole } from "@/lib/server/guards";
import { requireResultsAccess } from "@/lib/server/study-access";
import { flagItemAction } from "./actions";
import Link from "next/link";
import { ResultsPageView } from "@/components/results/results-page-view";

export const metadata: Metadata = { title: "Results" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function StudyResultsPage({
  params,
  searchParams,
}: {
  params: Promise<{ studyId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { studyId } = await params;
  const query = await searchParams;
  const user = await requirePageRole("researcher", `/admin/results/${studyId}`);
  const scope = first(query.scope) === "pool" ? "pool" : "study";
  const conditionParam = first(query.condition);
  const condition = conditionParam === "static" || conditionParam === "interactive" ? conditionParam : null;

  const denied = await requireResultsAccess(user, studyId, scope).then(
    () => null,
    (err: unknown) => {
      if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
      if (err instanceof AppError && err.code === "FORBIDDEN") return err.message;
      throw err;
    },
  );
  if (denied) {
    return (
      <main className="mx-auto max-w-3xl px-6 py-8">
        <h1 className="text-2xl font-semibold">Results</h1>
        <p role="alert" className="mt-4 text-red-700">
          {denied}
        </p>
        <p className="mt-2">
          <Link href={`/admin/results/${studyId}`} className="text-blue-700 underline">
            This study&apos;s results
          </Link>
        </p>
      </main>
    );
  }
  const participantPage = Math.max(1, Math.floor(Number(first(query.participants) ?? "1")) || 1);
  // Computed off the server's thread for large studies and cached per study revision (docs/heavy-work.md).
  const data = await getResultsData({ studyId, scope, condition, owner: user.id }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const shortcuts = await getShortcutAudit({ poolVersionId: data.page.human.scope.poolVersion.id });
  return (
    <ResultsPageView
      studyId={studyId}
      scope={scope}
      condition={condition}
      data={data}
      shortcuts={shortcuts}
      participantPage={participantPage}
      flagAction={user.role === "admin" ? flagItemAction : null}
    />
  );
}
