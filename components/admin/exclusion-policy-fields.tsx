"use client";

import { useId } from "react";
import {
  EXCLUSION_RULE_IDS,
  TASK_TIME_FLOORS_MS,
  type ExclusionPolicy,
  type ExclusionRuleId,
} from "@/lib/participant/integrity";
import { FieldErrors } from "./field-errors";

/** The policy as the form edits it: each threshold as typed text (empty: the rule is off), each boolean as a box. */
export type ExclusionPolicyForm = { [K in ExclusionRuleId]: ExclusionPolicy[K] extends boolean ? boolean : string };

export function policyToForm(p: ExclusionPolicy): ExclusionPolicyForm {
  const text = (v: number | null) => (v === null ? "" : String(v));
  return {
    hiddenSecOver: text(p.hiddenSecOver),
    focusLossesOver: text(p.focusLossesOver),
    anyPaste: p.anyPaste,
    anyCopy: p.anyCopy,
    webdriver: p.webdriver,
    fastPercentAtLeast: text(p.fastPercentAtLeast),
    identicalRunAtLeast: text(p.identicalRunAtLeast),
  };
}

/** What the form sends (the server validates it with ExclusionPolicySchema; a bad number comes back beside its box). */
export function formToPolicy(f: ExclusionPolicyForm): Record<ExclusionRuleId, number | boolean | null> {
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  return {
    hiddenSecOver: num(f.hiddenSecOver),
    focusLossesOver: num(f.focusLossesOver),
    anyPaste: f.anyPaste,
    anyCopy: f.anyCopy,
    webdriver: f.webdriver,
    fastPercentAtLeast: num(f.fastPercentAtLeast),
    identicalRunAtLeast: num(f.identicalRunAtLeast),
  };
}

const LABELS: Record<ExclusionRuleId, { label: string; hint?: string }> = {
  hiddenSecOver: {
    label: "Page hidden longer than (seconds, all questions together)",
    hint: "Another tab or window in front, minimised, screen locked.",
  },
  focusLossesOver: {
    label: "More focus losses than (all questions together)",
    hint: "The window lost focus: another application or window.",
  },
  anyPaste: { label: "Any paste into an answer field" },
  anyCopy: { label: "Any copy on a question page" },
  webdriver: { label: "Browser automation reported (navigator.webdriver)" },
  fastPercentAtLeast: {
    label: "Answers under the task's time floor, at least (%)",
    hint: `Floors: ${Object.entries(TASK_TIME_FLOORS_MS)
      .map(([t, ms]) => `${t} ${ms / 1000} s`)
      .join(", ")}.`,
  },
  identicalRunAtLeast: {
    label: "Identical answers in a row, at least",
    hint: "Same canonical answer on consecutive questions (2 or more).",
  },
};

/** The study form's exclusion-policy fieldset. Every rule is off by default: nobody is excluded. */
export function ExclusionPolicyFields({
  value,
  onChange,
  errors,
}: {
  value: ExclusionPolicyForm;
  onChange: (v: ExclusionPolicyForm) => void;
  errors: (path: string) => string[];
}) {
  const id = useId();
  return (
    <fieldset className="rounded border border-slate-300 p-3" aria-describedby={`${id}-about`}>
      <legend className="px-1 text-sm font-medium">Exclusion policy (integrity signals)</legend>
      <p id={`${id}-about`} className="text-xs text-slate-600">
        Participants are never blocked or told anything: their signals are recorded, and the results page reports
        accuracy with and without the participants these rules exclude, and how many each rule removed. Empty or
        unticked: the rule is off (default: no exclusions).
      </p>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {EXCLUSION_RULE_IDS.map((rule) => {
          const path = `config.exclusions.${rule}`;
          const v = value[rule];
          const messages = errors(path);
          const err = messages.length ? `${id}-${rule}-err` : undefined;
          return typeof v === "boolean" ? (
            <div key={rule}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={v}
                  onChange={(e) => onChange({ ...value, [rule]: e.target.checked })}
                  aria-describedby={err}
                />
                {LABELS[rule].label}
              </label>
              <FieldErrors id={`${id}-${rule}-err`} messages={messages} />
            </div>
          ) : (
            <div key={rule}>
              <label htmlFor={`${id}-${rule}`} className="block text-sm font-medium">
                {LABELS[rule].label}
              </label>
              <input
                id={`${id}-${rule}`}
                type="number"
                min={0}
                value={v}
                onChange={(e) => onChange({ ...value, [rule]: e.target.value })}
                aria-invalid={messages.length > 0}
                aria-describedby={err}
                className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
              />
              {LABELS[rule].hint ? <p className="text-xs text-slate-600">{LABELS[rule].hint}</p> : null}
              <FieldErrors id={`${id}-${rule}-err`} messages={messages} />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
