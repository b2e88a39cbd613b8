"use client";

import { useId, useState } from "react";
import { formatFixed, formatFractionAsPercent } from "@/lib/results/rounding";
import {
  PAPER_BEST_MODEL_EXACT,
  planStudy,
  type PilotColumnStats,
  type PlanTarget,
} from "@/lib/results/sample-size-plan";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS, type ResultColumnKey } from "@/lib/results/task-columns";
import type { TaskId } from "@/lib/tasks/types";
import { DataTable, Th } from "@/components/ui/data-table";

export interface SampleSizePlannerProps {
  /** Tasks of the study (their result columns are planned). */
  tasks: readonly string[];
  /** Follow the form's values when given (study form); otherwise editable here. */
  itemsPerTask: number;
  answersPerItem: number;
  itemsEditable?: boolean;
  /** Pilot statistics (results page): observed accuracy and ICC per column. */
  pilot?: readonly PilotColumnStats[];
}

const INPUT = "mt-1 w-24 rounded border border-slate-400 px-2 py-1 text-sm";
const TD = "px-2 py-1 tabular-nums";

function num(text: string): number {
  const x = Number(text);
  return Number.isFinite(x) ? x : Number.NaN;
}

/**
 * Sample-size planner (lib/results/sample-size-plan over lib/stats/sample-size): participants and
 * items per task for a target interval half-width, a difference to detect from a model, or a condition effect
 * (interactive − static) to detect.
 */
export function SampleSizePlanner({
  tasks,
  itemsPerTask,
  answersPerItem,
  itemsEditable = false,
  pilot,
}: SampleSizePlannerProps) {
  const id = useId();
  const [kind, setKind] = useState<PlanTarget["kind"]>("precision");
  const [halfWidth, setHalfWidth] = useState("10");
  const [difference, setDifference] = useState("10");
  const [power, setPower] = useState("80");
  const [icc, setIcc] = useState("0.1");
  const [ownItems, setOwnItems] = useState(String(itemsPerTask));
  const [ownK, setOwnK] = useState(String(answersPerItem));
  const [usePilot, setUsePilot] = useState(pilot !== undefined && pilot.length > 0);

  const m = itemsEditable ? num(ownItems) : itemsPerTask;
  const k = itemsEditable ? num(ownK) : answersPerItem;
  const columns = RESULT_COLUMN_KEYS.filter((c) => tasks.includes(RESULT_COLUMNS[c].taskId as TaskId));
  const target: PlanTarget =
    kind === "precision"
      ? { kind, halfWidth: num(halfWidth) / 100 }
      : { kind, difference: num(difference) / 100, power: num(power) / 100 };
  const byCondition = kind === "condition";
  const inputsOk = Number.isInteger(m) && m >= 1 && Number.isInteger(k) && k >= 1 && num(icc) >= 0 && num(icc) <= 1;
  const plan = inputsOk
    ? planStudy({
        target,
        columns,
        itemsPerTask: m,
        answersPerItem: k,
        assumedIcc: num(icc),
        ...(usePilot && pilot ? { pilot } : {}),
      })
    : null;

  return (
    <section
      aria-labelledby={`${id}-h`}
      className="rounded border border-slate-300 bg-white p-3 text-sm"
      data-testid="sample-size-planner"
    >
      <h3 id={`${id}-h`} className="font-semibold">
        Sample-size planner
      </h3>
      <div className="mt-2 flex flex-wrap items-end gap-4">
        <fieldset>
          <legend className="font-medium">Target</legend>
          <label className="mr-3">
            <input
              type="radio"
              name={`${id}-kind`}
              checked={kind === "precision"}
              onChange={() => setKind("precision")}
            />{" "}
            95% interval half-width per task
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-kind`}
              checked={kind === "difference"}
              onChange={() => setKind("difference")}
            />{" "}
            difference from the best model
          </label>
          <label className="ml-3">
            <input
              type="radio"
              name={`${id}-kind`}
              checked={kind === "condition"}
              onChange={() => setKind("condition")}
            />{" "}
            condition effect (interactive − static)
          </label>
        </fieldset>
        {kind === "precision" ? (
          <label className="block">
            Half-width (points)
            <input
              className={`${INPUT} block`}
              type="number"
              min={0.5}
              max={49}
              step={0.5}
              value={halfWidth}
              onChange={(e) => setHalfWidth(e.target.value)}
            />
          </label>
        ) : (
          <>
            <label className="block">
              Difference (points)
              <input
                className={`${INPUT} block`}
                type="number"
                min={0.5}
                max={99}
                step={0.5}
                value={difference}
                onChange={(e) => setDifference(e.target.value)}
              />
            </label>
            <label className="block">
              Power (%)
              <input
                className={`${INPUT} block`}
                type="number"
                min={50}
                max={99}
                value={power}
                onChange={(e) => setPower(e.target.value)}
              />
            </label>
          </>
        )}
        <label className="block">
          Participant ICC (assumed)
          <input
            className={`${INPUT} block`}
            type="number"
            min={0}
            max={1}
            step={0.01}
            value={icc}
            onChange={(e) => setIcc(e.target.value)}
          />
        </label>
        {itemsEditable ? (
          <>
            <label className="block">
              Items per task per participant
              <input
                className={`${INPUT} block`}
                type="number"
                min={1}
                value={ownItems}
                onChange={(e) => setOwnItems(e.target.value)}
              />
            </label>
            <label className="block">
              Answers per item (k)
              <input
                className={`${INPUT} block`}
                type="number"
                min={1}
                value={ownK}
                onChange={(e) => setOwnK(e.target.value)}
              />
            </label>
          </>
        ) : (
          <p className="text-slate-700">
            {itemsPerTask} items per task per participant, k = {answersPerItem} (from the form)
          </p>
        )}
        {pilot && pilot.length > 0 ? (
          <label>
            <input type="checkbox" checked={usePilot} onChange={(e) => setUsePilot(e.target.checked)} /> use this
            study&apos;s answers as a pilot (accuracy and ICC)
          </label>
        ) : null}
      </div>
      {!plan ? (
        <p role="alert" className="mt-2 text-red-800">
          Items per task and k must be whole numbers ≥ 1 and the ICC between 0 and 1.
        </p>
      ) : (
        <>
          <p className="mt-3 font-medium" data-testid="planner-participants">
            Participants needed: {plan.participants}
          </p>
          {plan.problems.length > 0 ? (
            <p role="alert" className="text-red-800">
              {plan.problems.join("; ")}
            </p>
          ) : null}
          <DataTable variant="plain" className="mt-1">
            <thead>
              <tr className="border-b border-slate-300">
                {[
                  "Column",
                  byCondition ? "Static (expected)" : "Expected accuracy",
                  kind === "difference" ? "Model (paper's best)" : null,
                  byCondition ? "Interactive (alternative)" : null,
                  "ICC",
                  "Answers / participant",
                  "Design effect",
                  "Answers",
                  byCondition ? "Participants / condition" : null,
                  "Participants",
                  "Items",
                ]
                  .filter((x): x is string => x !== null)
                  .map((h) => (
                    <Th variant="ruled" key={h} scope="col">
                      {h}
                    </Th>
                  ))}
              </tr>
            </thead>
            <tbody>
              {plan.columns.map((c) => (
                <tr key={c.column} className="border-b border-slate-200">
                  <Th variant="ruled" scope="row">
                    {c.label}
                  </Th>
                  <td className={TD}>
                    {formatFractionAsPercent(c.expectedAccuracy)}%{" "}
                    <span className="text-xs text-slate-600">({c.expectedFrom})</span>
                  </td>
                  {kind === "difference" ? (
                    <td className={TD}>
                      {formatFractionAsPercent(c.modelAccuracy)}%{" "}
                      <span className="text-xs text-slate-600">
                        {PAPER_BEST_MODEL_EXACT[c.column as ResultColumnKey].model}
                      </span>
                    </td>
                  ) : null}
                  {byCondition ? <td className={TD}>{formatFractionAsPercent(c.alternativeAccuracy)}%</td> : null}
                  <td className={TD}>
                    {formatFixed(c.icc, 3)} <span className="text-xs text-slate-600">({c.iccFrom})</span>
                  </td>
                  <td className={TD}>{c.answersPerParticipant}</td>
                  <td className={TD}>{formatFixed(c.designEffect, 2)}</td>
                  <td className={TD}>{c.answers}</td>
                  {byCondition ? (
                    <td
                      className={TD}
                      title={
                        c.perCondition
                          ? `The results page's interval (Welch t on participants) has ${formatFixed(100 * c.perCondition.power, 1)}% power with these participants`
                          : undefined
                      }
                    >
                      {c.perCondition?.participants}
                    </td>
                  ) : null}
                  <td className={TD}>{c.participants}</td>
                  <td className={TD}>{c.items}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </>
      )}
      <details className="mt-2 text-xs text-slate-700">
        <summary className="cursor-pointer">Formulas</summary>
        <ul className="list-disc pl-5">
          <li>
            Half-width target: the smallest n of independent answers whose Wilson 95% interval at the expected accuracy
            p is at most h wide on each side (the Wald form n = z²p(1−p)/h² is close away from 0 and 1).
          </li>
          <li>
            Difference target: n = [z₁₋α/₂√(p₀q₀) + z₁₋β√(p₁q₁)]² / (p₁−p₀)², p₀ the model&apos;s accuracy (paper Table
            2, best model), p₁ = p₀ ± the difference on the humans&apos; expected side, α = 0.05 two-sided.
          </li>
          <li>
            Condition effect: the smallest G participants per condition for which the results page&apos;s interval (a
            Welch t interval on participants) reaches the power: each condition&apos;s accuracy has variance V = p q (1
            + (m−1)ρ) / (m G), SE = √(V₁ + V₂), Welch–Satterthwaite df, power = P(|T| &gt; t₁₋α/₂) at the difference, α
            = 0.05 two-sided; p₁ the expected (static) accuracy, p₂ = p₁ + the difference (p₁ − it near 100%); the two
            conditions together give the participants. The interval is about the study&apos;s questions (both conditions
            answer them), so item difficulty does not enter (docs/condition-effect.md).
          </li>
          <li>
            Clustering: answers = ⌈n · (1 + (m−1)ρ)⌉ with m answers per participant and ρ the between-participant ICC
            (one-way ANOVA estimate from the pilot); participants = ⌈answers / m⌉; items = max(m, ⌈participants · m /
            k⌉). T4&apos;s items are split between Pos. and Neg.
          </li>
          <li>
            Expected accuracy: the paper&apos;s human exact-match row, or the pilot&apos;s observed accuracy. Items are
            assumed exchangeable (no item ICC).
          </li>
        </ul>
      </details>
    </section>
  );
}
