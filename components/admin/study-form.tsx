"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { StudyConfig } from "@/lib/study-config";
import { parseIdList } from "@/lib/pools/pool-recipe";
import { toSlug } from "@/lib/pools/study-input";
import { errorsFor, sendJson } from "./send-json";
import { FieldErrors, FormStatus } from "./field-errors";
import { SampleSizePlanner } from "@/components/results/sample-size-planner";
import { ItemPicker } from "@/components/admin/item-picker";
import { ExclusionPolicyFields, formToPolicy, policyToForm } from "./exclusion-policy-fields";
import { DataTable } from "@/components/ui/data-table";

export interface PoolVersionChoice {
  id: string;
  label: string;
}

export interface StudyFormProps {
  mode: "create" | "edit";
  studyId?: string;
  initial: { name: string; slug: string; poolVersionId: string; config: StudyConfig };
  poolVersions: PoolVersionChoice[];
  tasks: Array<{ id: string; label: string }>;
}

type Interactive = Record<string, { allowRotate: boolean; allowZoom: boolean }>;

const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";
const optionalNumber = (text: string): number | null => (text.trim() === "" ? null : Number(text));
const optionalText = (text: string): string | undefined => (text.trim() === "" ? undefined : text.trim());

/** Create/edit form for a study; every field is validated by StudyConfigSchema on the server and errors shown beside it. */
export function StudyForm({ mode, studyId, initial, poolVersions, tasks }: StudyFormProps) {
  const router = useRouter();
  const id = useId();
  const c = initial.config;
  const [name, setName] = useState(initial.name);
  const [slug, setSlug] = useState(initial.slug);
  const [slugTouched, setSlugTouched] = useState(mode === "edit");
  const [poolVersionId, setPoolVersionId] = useState(initial.poolVersionId);
  const [chosenTasks, setChosenTasks] = useState<string[]>(c.tasks);
  const [itemsPerTask, setItemsPerTask] = useState(String(c.itemsPerTask));
  const [answersPerItem, setAnswersPerItem] = useState(String(c.answersPerItem));
  const [conditions, setConditions] = useState<string[]>(c.conditions);
  const [interactive, setInteractive] = useState<Interactive>(() => ({ ...(c.interactive as Interactive) }));
  const [practice, setPractice] = useState(c.practiceItemIds.join("\n"));
  const [attention, setAttention] = useState(c.attentionItemIds.join("\n"));
  const [attentionPolicy, setAttentionPolicy] = useState(c.attentionPolicy);
  const [attentionMaxFailures, setAttentionMaxFailures] = useState(String(c.attentionMaxFailures));
  const [timeLimitSec, setTimeLimitSec] = useState(c.timeLimitSec === null ? "" : String(c.timeLimitSec));
  const [assignmentTimeoutMin, setAssignmentTimeoutMin] = useState(String(c.assignmentTimeoutMin));
  const [maxParticipants, setMaxParticipants] = useState(c.maxParticipants === null ? "" : String(c.maxParticipants));
  const [consentText, setConsentText] = useState(c.consentText);
  const [declineMessage, setDeclineMessage] = useState(c.declineMessage);
  const [prolific, setProlific] = useState({
    participantParam: c.prolific.participantParam,
    studyParam: c.prolific.studyParam,
    sessionParam: c.prolific.sessionParam,
    completionCode: c.prolific.completionCode ?? "",
    completionUrl: c.prolific.completionUrl ?? "",
    returnUrl: c.prolific.returnUrl ?? "",
  });
  const [cohortTag, setCohortTag] = useState(c.cohortTag ?? "");
  const [hbondPrimer, setHbondPrimer] = useState(c.hbondPrimer);
  const [deviceRule, setDeviceRule] = useState(c.deviceRule);
  const [exclusions, setExclusions] = useState(() => policyToForm(c.exclusions));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});

  function buildBody() {
    const interactiveForTasks = Object.fromEntries(
      Object.entries(interactive).filter(([t]) => chosenTasks.includes(t)),
    );
    return {
      name,
      slug,
      poolVersionId,
      config: {
        tasks: chosenTasks,
        itemsPerTask: Number(itemsPerTask),
        answersPerItem: Number(answersPerItem),
        conditions,
        interactive: conditions.includes("interactive") ? interactiveForTasks : {},
        practiceItemIds: parseIdList(practice),
        attentionItemIds: parseIdList(attention),
        attentionPolicy,
        attentionMaxFailures: Number(attentionMaxFailures),
        timeLimitSec: optionalNumber(timeLimitSec),
        assignmentTimeoutMin: Number(assignmentTimeoutMin),
        maxParticipants: optionalNumber(maxParticipants),
        consentText,
        declineMessage,
        prolific: {
          participantParam: prolific.participantParam.trim(),
          studyParam: prolific.studyParam.trim(),
          sessionParam: prolific.sessionParam.trim(),
          completionCode: optionalText(prolific.completionCode),
          completionUrl: optionalText(prolific.completionUrl),
          returnUrl: optionalText(prolific.returnUrl),
        },
        cohortTag: optionalText(cohortTag) ?? null,
        hbondPrimer,
        deviceRule,
        exclusions: formToPolicy(exclusions),
      },
    };
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const result =
      mode === "create"
        ? await sendJson<{ id: string }>("POST", "/api/admin/studies", buildBody())
        : await sendJson<{ id: string }>("PUT", `/api/admin/studies/${studyId}`, buildBody());
    setPending(false);
    if (!result.ok) {
      setError(result.status === 422 ? "Some fields need attention (see the messages beside them)." : result.message);
      setFieldErrors(result.fieldErrors);
      setFormErrors(result.formErrors);
      return;
    }
    router.push(`/admin/studies/${result.data.id}`);
    router.refresh();
  }

  const errs = (path: string) => errorsFor(fieldErrors, path, { nested: true });
  const describedBy = (path: string) => (errs(path).length ? `${id}-${path}-err` : undefined);
  const field = (path: string, label: string, control: React.ReactNode, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${path}`} className="block text-sm font-medium">
        {label}
      </label>
      {control}
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      <FieldErrors id={`${id}-${path}-err`} messages={errs(path)} />
    </div>
  );
  const text = (
    path: string,
    value: string,
    set: (v: string) => void,
    extra: React.InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <input
      id={`${id}-${path}`}
      value={value}
      onChange={(e) => set(e.target.value)}
      aria-invalid={errs(path).length > 0}
      aria-describedby={describedBy(path)}
      className={input}
      {...extra}
    />
  );

  return (
    <form
      onSubmit={onSubmit}
      className="space-y-6"
      aria-label={mode === "create" ? "New study" : "Edit study"}
      noValidate
    >
      <section className="grid gap-4 sm:grid-cols-2">
        {field(
          "name",
          "Study name",
          text("name", name, (v) => {
            setName(v);
            if (!slugTouched) setSlug(toSlug(v));
          }),
        )}
        {field(
          "slug",
          "Link slug",
          text("slug", slug, (v) => {
            setSlug(v);
            setSlugTouched(true);
          }),
          "Participants open /s/<slug>.",
        )}
        {field(
          "poolVersionId",
          "Pool version",
          <select
            id={`${id}-poolVersionId`}
            value={poolVersionId}
            onChange={(e) => setPoolVersionId(e.target.value)}
            aria-describedby={describedBy("poolVersionId")}
            className={`${input} bg-white`}
          >
            <option value="">choose…</option>
            {poolVersions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>,
          "Opening needs a frozen version.",
        )}
        {field(
          "config.cohortTag",
          "Cohort tag",
          <>
            {text("config.cohortTag", cohortTag, setCohortTag, { list: `${id}-cohorts` })}
            <datalist id={`${id}-cohorts`}>
              <option value="expert" />
              <option value="crowd" />
            </datalist>
          </>,
          "e.g. expert or crowd; stored with every participant's data.",
        )}
      </section>

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Tasks and load</legend>
        <div className="grid gap-1 sm:grid-cols-3">
          {tasks.map((t) => (
            <label key={t.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={chosenTasks.includes(t.id)}
                onChange={(e) =>
                  setChosenTasks(
                    e.target.checked
                      ? tasks.map((x) => x.id).filter((x) => x === t.id || chosenTasks.includes(x))
                      : chosenTasks.filter((x) => x !== t.id),
                  )
                }
              />
              {t.label}
            </label>
          ))}
        </div>
        <FieldErrors id={`${id}-config.tasks-err`} messages={errs("config.tasks")} />
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          {field(
            "config.itemsPerTask",
            "Items per task per participant",
            text("config.itemsPerTask", itemsPerTask, setItemsPerTask, { type: "number", min: 1 }),
          )}
          {field(
            "config.answersPerItem",
            "Answers per item (k)",
            text("config.answersPerItem", answersPerItem, setAnswersPerItem, { type: "number", min: 1 }),
            "No item is assigned beyond k answers.",
          )}
          {field(
            "config.maxParticipants",
            "Participant cap",
            text("config.maxParticipants", maxParticipants, setMaxParticipants, { type: "number", min: 1 }),
            "Empty: no cap.",
          )}
        </div>
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium">How many participants? (sample-size planner)</summary>
          <div className="mt-2">
            <SampleSizePlanner
              tasks={chosenTasks}
              itemsPerTask={Number(itemsPerTask)}
              answersPerItem={Number(answersPerItem)}
            />
          </div>
        </details>
      </fieldset>

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Conditions (counterbalanced between participants)</legend>
        <div className="flex gap-6 text-sm">
          {(["static", "interactive"] as const).map((cond) => (
            <label key={cond} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={conditions.includes(cond)}
                onChange={(e) =>
                  setConditions(
                    e.target.checked
                      ? [...conditions.filter((x) => x !== cond), cond].sort((a, b) =>
                          a === "static" ? -1 : b === "static" ? 1 : 0,
                        )
                      : conditions.filter((x) => x !== cond),
                  )
                }
              />
              {cond === "static" ? "static images (the paper's condition)" : "interactive 3D view"}
            </label>
          ))}
        </div>
        <FieldErrors id={`${id}-config.conditions-err`} messages={errs("config.conditions")} />
        {conditions.includes("interactive") ? (
          <DataTable variant="plain" className="mt-3">
            <caption className="text-left text-sm font-medium">Interactive view permissions per task</caption>
            <thead>
              <tr className="text-left">
                <th scope="col" className="pr-4">
                  Task
                </th>
                <th scope="col" className="pr-4">
                  Rotate
                </th>
                <th scope="col">Zoom</th>
              </tr>
            </thead>
            <tbody>
              {tasks
                .filter((t) => chosenTasks.includes(t.id))
                .map((t) => {
                  const p = interactive[t.id] ?? { allowRotate: true, allowZoom: true };
                  return (
                    <tr key={t.id}>
                      <td className="pr-4">{t.label}</td>
                      {(["allowRotate", "allowZoom"] as const).map((k) => (
                        <td key={k} className="pr-4">
                          <input
                            type="checkbox"
                            aria-label={`${t.label}: ${k === "allowRotate" ? "rotate" : "zoom"}`}
                            checked={p[k]}
                            onChange={(e) =>
                              setInteractive({ ...interactive, [t.id]: { ...p, [k]: e.target.checked } })
                            }
                          />
                        </td>
                      ))}
                    </tr>
                  );
                })}
            </tbody>
          </DataTable>
        ) : null}
      </fieldset>

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Practice and attention checks</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {field(
            "config.practiceItemIds",
            "Practice item ids (with feedback, not scored)",
            <>
              <textarea
                id={`${id}-config.practiceItemIds`}
                rows={3}
                value={practice}
                onChange={(e) => setPractice(e.target.value)}
                aria-describedby={describedBy("config.practiceItemIds")}
                className={`${input} font-mono text-xs`}
              />
              <ItemPicker
                label="Pick practice items"
                chosen={parseIdList(practice)}
                onAdd={(itemId) => setPractice([...parseIdList(practice), itemId].join("\n"))}
                onRemove={(itemId) =>
                  setPractice(
                    parseIdList(practice)
                      .filter((x) => x !== itemId)
                      .join("\n"),
                  )
                }
              />
            </>,
          )}
          {field(
            "config.attentionItemIds",
            "Attention-check item ids (mixed into the main block)",
            <textarea
              id={`${id}-config.attentionItemIds`}
              rows={3}
              value={attention}
              onChange={(e) => setAttention(e.target.value)}
              aria-describedby={describedBy("config.attentionItemIds")}
              className={`${input} font-mono text-xs`}
            />,
          )}
          {field(
            "config.attentionPolicy",
            "When attention checks fail",
            <select
              id={`${id}-config.attentionPolicy`}
              value={attentionPolicy}
              onChange={(e) => setAttentionPolicy(e.target.value as typeof attentionPolicy)}
              className={`${input} bg-white`}
            >
              <option value="flag">flag the participant</option>
              <option value="screen_out">screen the participant out</option>
            </select>,
          )}
          {field(
            "config.attentionMaxFailures",
            "Failures tolerated",
            text("config.attentionMaxFailures", attentionMaxFailures, setAttentionMaxFailures, {
              type: "number",
              min: 0,
            }),
          )}
        </div>
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={hbondPrimer} onChange={(e) => setHbondPrimer(e.target.checked)} />
          Show the illustrated hydrogen-bond primer before the first H-bond task (recorded per participant)
        </label>
        <label className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          Devices
          <select
            value={deviceRule}
            onChange={(e) => setDeviceRule(e.target.value as typeof deviceRule)}
            className="rounded border border-slate-400 bg-white px-2 py-1"
          >
            <option value="auto">desktop only when a task needs atom labels (T4, T8, T9)</option>
            <option value="desktop">desktop or laptop only</option>
            <option value="any">any device, phones included</option>
          </select>
        </label>
      </fieldset>

      <ExclusionPolicyFields value={exclusions} onChange={setExclusions} errors={errs} />

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Time limits</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {field(
            "config.timeLimitSec",
            "Time limit per item (seconds)",
            text("config.timeLimitSec", timeLimitSec, setTimeLimitSec, { type: "number", min: 5 }),
            "Empty: no limit.",
          )}
          {field(
            "config.assignmentTimeoutMin",
            "Reclaim unanswered items after (minutes)",
            text("config.assignmentTimeoutMin", assignmentTimeoutMin, setAssignmentTimeoutMin, {
              type: "number",
              min: 1,
            }),
          )}
        </div>
      </fieldset>

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Consent</legend>
        {field(
          "config.consentText",
          "Consent text",
          <textarea
            id={`${id}-config.consentText`}
            rows={7}
            value={consentText}
            onChange={(e) => setConsentText(e.target.value)}
            aria-describedby={describedBy("config.consentText")}
            className={input}
          />,
        )}
        {field(
          "config.declineMessage",
          "Message after declining",
          <textarea
            id={`${id}-config.declineMessage`}
            rows={2}
            value={declineMessage}
            onChange={(e) => setDeclineMessage(e.target.value)}
            aria-describedby={describedBy("config.declineMessage")}
            className={input}
          />,
        )}
      </fieldset>

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Prolific</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {(["participantParam", "studyParam", "sessionParam"] as const).map((k) => (
            <div key={k}>
              {field(
                `config.prolific.${k}`,
                {
                  participantParam: "Participant id parameter",
                  studyParam: "Study id parameter",
                  sessionParam: "Session id parameter",
                }[k],
                text(`config.prolific.${k}`, prolific[k], (v) => setProlific({ ...prolific, [k]: v })),
              )}
            </div>
          ))}
          {field(
            "config.prolific.completionCode",
            "Completion code",
            text("config.prolific.completionCode", prolific.completionCode, (v) =>
              setProlific({ ...prolific, completionCode: v }),
            ),
          )}
          {field(
            "config.prolific.completionUrl",
            "Completion URL",
            text(
              "config.prolific.completionUrl",
              prolific.completionUrl,
              (v) => setProlific({ ...prolific, completionUrl: v }),
              { type: "url" },
            ),
            "e.g. https://app.prolific.com/submissions/complete?cc=…",
          )}
          {field(
            "config.prolific.returnUrl",
            "Return URL (declined / screened out)",
            text("config.prolific.returnUrl", prolific.returnUrl, (v) => setProlific({ ...prolific, returnUrl: v }), {
              type: "url",
            }),
          )}
        </div>
      </fieldset>

      <div className="flex items-center gap-4">
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {pending ? "Saving…" : mode === "create" ? "Create study" : "Save changes"}
        </button>
      </div>
      <FormStatus
        error={error}
        extra={[
          ...formErrors,
          ...Object.entries(fieldErrors)
            .filter(([p]) => !KNOWN_PREFIXES.some((k) => p === k || p.startsWith(`${k}.`)))
            .map(([p, m]) => `${p}: ${m.join("; ")}`),
        ]}
      />
    </form>
  );
}

// Paths shown next to a field; anything else (an unexpected path) is listed under the form so no error is hidden.
const KNOWN_PREFIXES = [
  "name",
  "slug",
  "poolVersionId",
  "config.cohortTag",
  "config.tasks",
  "config.itemsPerTask",
  "config.answersPerItem",
  "config.maxParticipants",
  "config.conditions",
  "config.practiceItemIds",
  "config.attentionItemIds",
  "config.attentionPolicy",
  "config.attentionMaxFailures",
  "config.timeLimitSec",
  "config.assignmentTimeoutMin",
  "config.consentText",
  "config.declineMessage",
  "config.prolific",
  "config.exclusions",
];
