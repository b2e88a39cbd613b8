import type { ResultsDataDto } from "@/lib/server/dal/results/get-results-page";
import type { ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import type { TaskShortcutAudit } from "@/lib/shortcuts/audit";
import type { FlagItemState } from "@/components/results/flag-item-form";

export const SECTION = "mt-10 scroll-mt-4";

export interface ResultsPageViewProps {
  studyId: string;
  scope: ResultsScope;
  condition: "static" | "interactive" | null;
  /** The page's data, computed from the responses (getResultsData). */
  data: ResultsDataDto;
  shortcuts: TaskShortcutAudit[];
  /** Page of the per-participant signal table (1-based). */
  participantPage: number;
  /** Flagging an item (admins), or null. */
  flagAction: ((prev: FlagItemState, form: FormData) => Promise<FlagItemState>) | null;
}

/** What every section of the results page reads: the props, the data's parts and the page's link builders. */
export type ResultsPageContext = ReturnType<typeof resultsPageContext>;

export function resultsPageContext(props: ResultsPageViewProps) {
  const { studyId, scope, condition, data, shortcuts, participantPage, flagAction } = props;
  const { page, integrity, threeD } = data;
  const { human, items, models } = page;
  const s = human.scope;
  const summary = human.summary;
  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams();
    const merged: Record<string, string | null> = { scope: scope === "pool" ? "pool" : null, condition, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v) next.set(k, v);
    const text = next.toString();
    return `/admin/results/${studyId}${text ? `?${text}` : ""}`;
  };
  const exportHref = (kind: string) => `/api/export/${studyId}/${kind}${scope === "pool" ? "?scope=pool" : ""}`;
  const fileStem = `${s.study.slug}${scope === "pool" ? "-pool" : ""}`;
  const runNames = Object.fromEntries(models.runs.map((r) => [r.id, r.name]));
  const paperTableHref = (format: string, metric: string, score = "paper") => {
    const q = new URLSearchParams({ format, metric });
    if (score !== "paper") q.set("score", score);
    if (scope === "pool") q.set("scope", "pool");
    if (condition) q.set("condition", condition);
    return `/api/export/${studyId}/paper-table?${q.toString()}`;
  };

  return {
    studyId,
    scope,
    condition,
    shortcuts,
    participantPage,
    flagAction,
    page,
    integrity,
    threeD,
    human,
    items,
    models,
    s,
    summary,
    href,
    exportHref,
    fileStem,
    runNames,
    paperTableHref,
  };
}
