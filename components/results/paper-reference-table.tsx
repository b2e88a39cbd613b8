import {
  PAPER_ROWS,
  PAPER_SOURCE,
  PAPER_TABLE_NOTES,
  recomputePaperRowAverage,
  type PaperMetric,
} from "@/lib/results/paper-reference";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import { formatFixed } from "@/lib/results/rounding";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums whitespace-nowrap";

/** The paper's published rows, labelled "as reported": the authors' own items, never item-matched to this study. */
export function PaperReferenceTable({ metric }: { metric: PaperMetric }) {
  const rows = PAPER_ROWS.filter((r) => r.metric === metric);
  return (
    <div className="max-w-full overflow-x-auto">
      <DataTable variant="plain" className="min-w-full border-collapse">
        <caption className="py-1 text-left text-slate-700">
          {metric === "exact" ? "Exact match (the paper's Table 2)" : "Partial credit (the paper's Table 1)"}, percent,
          as reported in {PAPER_SOURCE}
        </caption>
        <thead>
          <tr className="border-b border-slate-400 bg-slate-100">
            <Th variant="ruled" scope="col" className="sticky left-0 z-10 bg-slate-100">
              Row
            </Th>
            <Th variant="ruled" scope="col">
              Avg (printed)
            </Th>
            {RESULT_COLUMN_KEYS.map((k) => (
              <Th variant="ruled" key={k} scope="col">
                {RESULT_COLUMNS[k].label}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const recomputed = recomputePaperRowAverage(r);
            return (
              <tr key={`${r.model}-${r.metric}`} className="border-b border-slate-200">
                <Th variant="ruled" scope="row" className="sticky left-0 z-10 min-w-56 max-w-72 bg-white">
                  {r.model}{" "}
                  <span className="rounded bg-amber-100 px-1 text-xs font-normal whitespace-nowrap text-amber-900">
                    as reported{r.itemSet === "full_test" ? ", full test set" : ""}
                  </span>
                  {r.note ? (
                    <span className="block text-xs font-normal text-slate-600" title={r.note}>
                      note: {r.note}
                    </span>
                  ) : null}
                </Th>
                <td className={TD} title={`Recomputed from the cells: ${formatFixed(recomputed, 2)}`}>
                  {formatFixed(r.avgPrinted, 2)}
                </td>
                {RESULT_COLUMN_KEYS.map((k) => (
                  <td key={k} className={TD}>
                    {formatFixed(r.cells[k], 2)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </DataTable>
      <ul className="mt-1 list-disc pl-5 text-xs text-slate-700">
        {PAPER_TABLE_NOTES.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
