import {
  PAPER_ROWS,
  PAPER_SOURCE,
  PAPER_TABLE_NOTES,
  recomputePaperRowAverage,
  type PaperMetric,
} from "@/lib/results/paper-reference";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import { formatFixed } from "@/lib/results/rounding";

const TH = "px-2 py-1 text-left font-medium";
const TD = "px-2 py-1 tabular-nums whitespace-nowrap";

/** The paper's published rows, labelled "as reported": the authors' own items, never item-matched to this study. */
export function PaperReferenceTable({ metric }: { metric: PaperMetric }) {
  const rows = PAPER_ROWS.filter((r) => r.metric === metric);
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">
        <caption className="py-1 text-left text-slate-700">
          {metric === "exact" ? "Exact match (the paper's Table 2)" : "Partial credit (the paper's Table 1)"}, percent,
          as reported in {PAPER_SOURCE}
        </caption>
        <thead>
          <tr className="border-b border-slate-400 bg-slate-100">
            <th scope="col" className={`${TH} sticky left-0 z-10 bg-slate-100`}>
              Row
            </th>
            <th scope="col" className={TH}>
              Avg (printed)
            </th>
            {RESULT_COLUMN_KEYS.map((k) => (
              <th key={k} scope="col" className={TH}>
                {RESULT_COLUMNS[k].label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const recomputed = recomputePaperRowAverage(r);
            return (
              <tr key={`${r.model}-${r.metric}`} className="border-b border-slate-200">
                <th scope="row" className={`${TH} sticky left-0 z-10 min-w-56 max-w-72 bg-white`}>
                  {r.model}{" "}
                  <span className="rounded bg-amber-100 px-1 text-xs font-normal whitespace-nowrap text-amber-900">
                    as reported{r.itemSet === "full_test" ? ", full test set" : ""}
                  </span>
                  {r.note ? (
                    <span className="block text-xs font-normal text-slate-600" title={r.note}>
                      note: {r.note}
                    </span>
                  ) : null}
                </th>
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
      </table>
      <ul className="mt-1 list-disc pl-5 text-xs text-slate-700">
        {PAPER_TABLE_NOTES.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
