import { HeaderRow } from "./header-row";
import Link from "next/link";
import type { ItemAnalysisDto, ItemRowDto } from "@/lib/server/dal/results/get-item-analysis";
import { RESULT_COLUMNS } from "@/lib/results/task-columns";
import { FlagItemForm, type FlagItemState } from "./flag-item-form";
import { formatNumber, formatPercent } from "./format";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums";

function AnswerDistribution({ item }: { item: ItemRowDto }) {
  return (
    <span className="font-mono text-xs">
      {item.answers.slice(0, 4).map((a, i) => (
        <span key={a.answer} className={a.answer === item.goldAnswer ? "text-green-800" : ""}>
          {/* Bond lists contain ';', so answers are separated by a middle dot. */}
          {i > 0 ? " · " : ""}
          {a.answer} ×{a.count}
        </span>
      ))}
      {item.answers.length > 4 ? ` … (${item.answers.length - 4} more)` : ""}
      {item.nWithoutAnswer > 0 ? ` · ${item.nWithoutAnswer} timed out` : ""}
    </span>
  );
}

function ItemTable({
  items,
  studyId,
  flagAction,
}: {
  items: ItemRowDto[];
  studyId: string;
  flagAction: ((prev: FlagItemState, form: FormData) => Promise<FlagItemState>) | null;
}) {
  return (
    <DataTable variant="ruled">
      <thead>
        <tr className="border-b border-slate-400 bg-slate-100">
          <Th variant="ruled" scope="col">
            Item
          </Th>
          <Th variant="ruled" scope="col">
            Task
          </Th>
          <Th variant="ruled" scope="col">
            Answers
          </Th>
          <Th variant="ruled" scope="col">
            Exact %
          </Th>
          <Th variant="ruled" scope="col">
            Partial %
          </Th>
          <Th variant="ruled" scope="col">
            Gold
          </Th>
          <Th variant="ruled" scope="col">
            Given (canonical) × count
          </Th>
          <Th variant="ruled" scope="col">
            Status
          </Th>
          {flagAction ? (
            <Th variant="ruled" scope="col">
              Flag
            </Th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.itemId} className="border-b border-slate-200 align-top">
            <Th variant="ruled" scope="row" className="font-normal">
              <Link href={`/admin/items/${item.itemId}`} className="text-blue-700 underline">
                {item.externalId ?? item.itemId}
              </Link>
            </Th>
            <td className="px-2 py-1">{RESULT_COLUMNS[item.column].label}</td>
            <td className={TD}>{item.nResponses}</td>
            <td className={`${TD} font-semibold`}>{formatPercent(item.exactAccuracy, 0)}</td>
            <td className={TD}>{formatPercent(item.partialMean, 0)}</td>
            <td className="px-2 py-1 font-mono text-xs">{item.goldAnswer ?? "–"}</td>
            <td className="px-2 py-1">
              <AnswerDistribution item={item} />
            </td>
            <td className="px-2 py-1 text-xs">
              {item.status}
              {item.statusReason ? <span className="block text-slate-600">{item.statusReason}</span> : null}
            </td>
            {flagAction ? (
              <td className="px-2 py-1">
                {item.status === "flagged" ? (
                  <span className="text-xs text-slate-600">flagged</span>
                ) : (
                  <FlagItemForm action={flagAction} itemId={item.itemId} studyId={studyId} />
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** Item analysis: most-missed items (possible wrong gold) with a flag action for admins, agreement, and every item. */
export function ItemAnalysisSection({
  dto,
  studyId,
  flagAction,
}: {
  dto: ItemAnalysisDto;
  studyId: string;
  flagAction: ((prev: FlagItemState, form: FormData) => Promise<FlagItemState>) | null;
}) {
  if (dto.items.length === 0) return <p className="text-sm text-slate-700">No main-phase answers yet.</p>;
  return (
    <div className="space-y-6">
      <div>
        <h3 className="font-semibold">Items most humans miss</h3>
        <p className="text-sm text-slate-700">
          Items with human exact accuracy below {Math.round(dto.maxAccuracy * 100)}%, lowest first, among items with at
          least {dto.minResponses} answers. A consistent wrong answer (see the distribution) can mean a wrong gold: open
          the item to check it{flagAction ? ", or flag it here" : ""}.
        </p>
        {dto.mostMissed.length > 0 ? (
          <ItemTable items={dto.mostMissed} studyId={studyId} flagAction={flagAction} />
        ) : (
          <p className="text-sm text-slate-700">No item has {dto.minResponses} answers yet.</p>
        )}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="font-semibold">Agreement on multiple-choice tasks (Fleiss&apos; κ)</h3>
          <DataTable variant="plain" className="mt-1">
            <thead>
              <HeaderRow labels={["Task", "κ", "Observed / chance agreement", "Items used (excluded)"]} />
            </thead>
            <tbody>
              {dto.multipleChoiceAgreement.map((a) => (
                <tr key={a.taskId} className="border-b border-slate-200">
                  <Th variant="ruled" scope="row" className="font-normal">
                    {taskDisplayName(a.taskId)}
                  </Th>
                  <td className={TD}>{formatNumber(a.fleiss?.kappa ?? null)}</td>
                  <td className={TD}>
                    {formatNumber(a.fleiss?.observedAgreement ?? null)} /{" "}
                    {formatNumber(a.fleiss?.chanceAgreement ?? null)}
                  </td>
                  <td className={TD}>
                    {a.fleiss?.nItemsUsed ?? 0} ({a.fleiss?.nItemsExcluded ?? a.nItems})
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {dto.multipleChoiceAgreement.length === 0 ? (
            <p className="text-sm text-slate-700">No multiple-choice answers.</p>
          ) : null}
        </div>
        <div>
          <h3 className="font-semibold">Agreement on answers (Krippendorff&apos;s α)</h3>
          <DataTable variant="plain" className="mt-1">
            <thead>
              <HeaderRow labels={["Task", "Level", "α", "Pairable items / answers"]} />
            </thead>
            <tbody>
              {dto.answerAgreement.map((a) => (
                <tr key={`${a.taskId}-${a.level}`} className="border-b border-slate-200">
                  <Th variant="ruled" scope="row" className="font-normal">
                    {taskDisplayName(a.taskId)}
                  </Th>
                  <td className="px-2 py-1" title={a.basis}>
                    {a.level}
                  </td>
                  <td className={TD}>{formatNumber(a.result?.alpha ?? null)}</td>
                  <td className={TD}>
                    {a.result?.nPairableUnits ?? 0} / {a.result?.nPairableValues ?? 0}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          <p className="mt-1 text-xs text-slate-700">
            Nominal α: two people agree when they gave the same canonical answer. Interval α only for zooming, whose
            answer is a single distance.
          </p>
        </div>
      </div>
      <details>
        <summary className="cursor-pointer font-semibold">All {dto.items.length} items</summary>
        <ItemTable items={dto.items} studyId={studyId} flagAction={null} />
      </details>
    </div>
  );
}
