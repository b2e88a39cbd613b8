"use client";

import { useId, useRef, useState } from "react";
import { Bar, BarChart, CartesianGrid, ErrorBar, Tooltip, XAxis, YAxis } from "recharts";
import { buildStandaloneSvg, downloadPng, downloadSvg, type LegendEntry } from "./chart-export";
import type { ChartBar, ConditionChartData, TaskChartColumn } from "./chart-data";
import { formatFixed } from "@/lib/results/rounding";
import { DataTable } from "@/components/ui/data-table";

const HUMAN_COLOR = "#334155";
const MODEL_COLORS = ["#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2", "#65a30d", "#dc2626"];
const CONDITION_COLORS: Record<string, string> = { static: "#475569", interactive: "#0d9488" };
const CHART_WIDTH_PX = 760;
const CHART_HEIGHT_PX = 340;
const MAX_DEFAULT_MODELS = 3;

type Datum = Record<string, string | number | [number, number] | null>;

function put(datum: Datum, key: string, bar: ChartBar | undefined | null): void {
  datum[key] = bar ? bar.mean : null;
  datum[`${key}__err`] = bar ? [bar.mean - bar.low, bar.high - bar.mean] : null;
}

function ExportButtons({
  chartRef,
  title,
  fileStem,
  legend,
}: {
  chartRef: React.RefObject<HTMLDivElement | null>;
  title: string;
  fileStem: string;
  legend: LegendEntry[];
}) {
  const [error, setError] = useState<string | null>(null);
  const standalone = () => {
    const svg = chartRef.current?.querySelector("svg.recharts-surface");
    if (!(svg instanceof SVGSVGElement)) throw new Error("the chart is not drawn yet");
    return buildStandaloneSvg(svg, title, legend);
  };
  const run = async (kind: "svg" | "png") => {
    setError(null);
    try {
      const text = standalone();
      if (kind === "svg") downloadSvg(text, `${fileStem}.svg`);
      else await downloadPng(text, `${fileStem}.png`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="flex items-center gap-2 text-sm">
      <button
        type="button"
        onClick={() => void run("svg")}
        className="rounded border border-slate-400 bg-white px-2 py-1 hover:bg-slate-100 focus:outline-2 focus:outline-blue-600"
      >
        Download SVG
      </button>
      <button
        type="button"
        onClick={() => void run("png")}
        className="rounded border border-slate-400 bg-white px-2 py-1 hover:bg-slate-100 focus:outline-2 focus:outline-blue-600"
      >
        Download PNG
      </button>
      {error ? (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function formatBar(bar: ChartBar | null | undefined): string {
  return bar
    ? `${formatFixed(bar.mean, 1)} [${formatFixed(bar.low, 1)}, ${formatFixed(bar.high, 1)}] (n ${bar.n})`
    : "–";
}

function BarsWithWhiskers({
  data,
  series,
  label,
}: {
  data: Datum[];
  series: { key: string; name: string; color: string }[];
  label: string;
}) {
  return (
    <BarChart
      width={CHART_WIDTH_PX}
      height={CHART_HEIGHT_PX}
      data={data}
      margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
      accessibilityLayer
      aria-label={label}
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
      <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#0f172a" }} interval={0} />
      <YAxis
        domain={[0, 100]}
        ticks={[0, 25, 50, 75, 100]}
        unit="%"
        tick={{ fontSize: 12, fill: "#0f172a" }}
        width={48}
      />
      <Tooltip formatter={(v) => (typeof v === "number" ? `${formatFixed(v, 1)}%` : String(v))} />
      {series.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} isAnimationActive={false}>
          <ErrorBar dataKey={`${s.key}__err`} width={4} stroke="#0f172a" strokeWidth={1.2} isAnimationActive={false} />
        </Bar>
      ))}
    </BarChart>
  );
}

function Legend({ entries }: { entries: LegendEntry[] }) {
  return (
    <ul className="mt-1 flex flex-wrap gap-4 text-sm" aria-label="Legend">
      {entries.map((e) => (
        <li key={e.label} className="flex items-center gap-1">
          <span aria-hidden className="inline-block h-3 w-3" style={{ background: e.color }} />
          {e.label}
        </li>
      ))}
    </ul>
  );
}

/** Per-task exact accuracy, humans vs the selected models, with 95% whiskers; plus its data table. */
export function TaskAccuracyChart({
  columns,
  runs,
  fileStem,
}: {
  columns: TaskChartColumn[];
  runs: { id: string; name: string }[];
  fileStem: string;
}) {
  const [selected, setSelected] = useState<string[]>(runs.slice(0, MAX_DEFAULT_MODELS).map((r) => r.id));
  const chartRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const chosen = runs.filter((r) => selected.includes(r.id));
  const series = [
    { key: "human", name: "Humans", color: HUMAN_COLOR },
    ...chosen.map((r) => ({
      key: `m_${runs.indexOf(r)}`,
      name: r.name,
      color: MODEL_COLORS[runs.indexOf(r) % MODEL_COLORS.length] as string,
    })),
  ];
  const data: Datum[] = columns.map((c) => {
    const d: Datum = { label: c.label };
    put(d, "human", c.human);
    for (const r of chosen) put(d, `m_${runs.indexOf(r)}`, c.models[r.id]);
    return d;
  });
  const legend = series.map((s) => ({ label: s.name, color: s.color }));
  const title = "Exact accuracy per task (95% intervals)";
  return (
    <figure aria-labelledby={headingId} className="rounded border border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {title}
        </h3>
        <ExportButtons chartRef={chartRef} title={title} fileStem={`${fileStem}-task-accuracy`} legend={legend} />
      </div>
      {runs.length > 0 ? (
        <fieldset className="mt-2 text-sm">
          <legend className="font-medium">Models shown</legend>
          <div className="flex flex-wrap gap-3">
            {runs.map((r) => (
              <label key={r.id} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={selected.includes(r.id)}
                  onChange={(e) => setSelected((s) => (e.target.checked ? [...s, r.id] : s.filter((x) => x !== r.id)))}
                />
                {r.name}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="mt-3 grid gap-4 xl:grid-cols-[auto_1fr]">
        <div>
          <div ref={chartRef} className="overflow-x-auto">
            <BarsWithWhiskers data={data} series={series} label={title} />
          </div>
          <Legend entries={legend} />
        </div>
        <DataTable variant="plain" className="h-fit">
          <caption className="text-left text-slate-700">Data shown in the chart (percent, [95% interval], n)</caption>
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className="pr-3">
                Task
              </th>
              {series.map((s) => (
                <th key={s.key} scope="col" className="pr-3">
                  {s.name}
                </th>
              ))}
              <th scope="col">Chance</th>
            </tr>
          </thead>
          <tbody>
            {columns.map((c) => (
              <tr key={c.column} className="border-b border-slate-100">
                <th scope="row" className="pr-3 text-left font-normal">
                  {c.label}
                </th>
                <td className="pr-3 tabular-nums">{formatBar(c.human)}</td>
                {chosen.map((r) => (
                  <td key={r.id} className="pr-3 tabular-nums">
                    {formatBar(c.models[r.id])}
                  </td>
                ))}
                <td className="tabular-nums">{c.chance === null ? "–" : formatFixed(c.chance, 1)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
      <figcaption className="mt-2 text-sm text-slate-700">
        Humans: pooled exact score over all their main-phase answers, whisker = 95% interval (participant bootstrap;
        clustered Wilson where the bootstrap collapses, see the note under the human table). Models: exact score on the
        items humans answered, whisker = Wilson interval over those items. Unparseable model answers count as wrong.
      </figcaption>
    </figure>
  );
}

/** Exact accuracy per task by condition (static vs interactive), humans only; plus its data table. */
export function ConditionChart({ data, fileStem }: { data: ConditionChartData; fileStem: string }) {
  const chartRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const series = data.conditions.map((c, i) => ({
    key: `c_${i}`,
    name: c,
    color: CONDITION_COLORS[c] ?? (MODEL_COLORS[i % MODEL_COLORS.length] as string),
  }));
  const rows: Datum[] = data.columns.map((col) => {
    const d: Datum = { label: col.label };
    data.conditions.forEach((cond, i) => put(d, `c_${i}`, col.byCondition[cond]));
    return d;
  });
  const legend = series.map((s) => ({ label: s.name, color: s.color }));
  const title = "Human exact accuracy by condition (95% intervals)";
  return (
    <figure aria-labelledby={headingId} className="rounded border border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {title}
        </h3>
        <ExportButtons chartRef={chartRef} title={title} fileStem={`${fileStem}-by-condition`} legend={legend} />
      </div>
      <div className="mt-3 grid gap-4 xl:grid-cols-[auto_1fr]">
        <div>
          <div ref={chartRef} className="overflow-x-auto">
            <BarsWithWhiskers data={rows} series={series} label={title} />
          </div>
          <Legend entries={legend} />
        </div>
        <DataTable variant="plain" className="h-fit">
          <caption className="text-left text-slate-700">
            Data shown in the chart (percent, [95% interval], n responses)
          </caption>
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className="pr-3">
                Task
              </th>
              {data.conditions.map((c) => (
                <th key={c} scope="col" className="pr-3">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.columns.map((col) => (
              <tr key={col.column} className="border-b border-slate-100">
                <th scope="row" className="pr-3 text-left font-normal">
                  {col.label}
                </th>
                {data.conditions.map((c) => (
                  <td key={c} className="pr-3 tabular-nums">
                    {formatBar(col.byCondition[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
    </figure>
  );
}
