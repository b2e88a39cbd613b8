"use client";

import { useId, useState } from "react";
import type { AnswerWidget } from "@/lib/tasks/types";

type WidgetOf<T extends AnswerWidget["type"]> = Extract<AnswerWidget, { type: T }>;

interface PickerResidue {
  residueName: string;
  residueNumber: number;
  insertionCode?: string;
  chainId: string;
  atoms: string[];
}

/** Picker data the generator puts in public fields (T4/T9): names visible in the item's images. */
export interface HbondPickers {
  residues: PickerResidue[];
  ligandAtoms: string[];
}

/** MC options as shown: text for T8, "see image N" for option images (T5/T6, captioned "Image N: option X"). */
export function readOptions(
  payload: unknown,
  captions: readonly string[] = [],
): Array<{ letter: string; text: string }> {
  const options = (payload as { options?: unknown } | null)?.options;
  const letters = ["A", "B", "C", "D"];
  if (Array.isArray(options)) {
    return options.slice(0, 4).map((o, i) => ({
      letter: letters[i]!,
      text:
        typeof o === "string"
          ? o
          : typeof o === "object" && o && "text" in o
            ? String((o as { text: unknown }).text)
            : `Option ${letters[i]}`,
    }));
  }
  if (options && typeof options === "object") {
    return letters
      .filter((l) => l in options)
      .map((l) => ({ letter: l, text: String((options as Record<string, unknown>)[l]) }));
  }
  return letters.map((l) => {
    const index = captions.findIndex((c) => new RegExp(`option ${l}\\b`, "i").test(c));
    return {
      letter: l,
      text: index >= 0 ? `the complex in image ${index + 1}` : `Option ${l} (see the option images)`,
    };
  });
}

export function readPickers(payload: unknown): HbondPickers | null {
  const p = (payload as { pickers?: HbondPickers } | null)?.pickers;
  return p && Array.isArray(p.residues) && Array.isArray(p.ligandAtoms) ? p : null;
}

export function McWidget({
  widget,
  payload,
  captions,
  value,
  onChange,
}: {
  widget: WidgetOf<"mc">;
  payload: unknown;
  captions?: readonly string[];
  value: string;
  onChange: (v: string) => void;
}) {
  const options = readOptions(payload, captions).filter((o) =>
    (widget.letters as readonly string[]).includes(o.letter),
  );
  return (
    <fieldset>
      <legend className="text-sm font-medium">Choose one option (keys 1–4 or A–D)</legend>
      <div className="mt-2 grid gap-2">
        {options.map((o, i) => (
          <label
            key={o.letter}
            className={`flex cursor-pointer items-start gap-3 rounded border px-3 py-2 ${value === o.letter ? "border-blue-700 bg-blue-50" : "border-slate-300 bg-white"}`}
          >
            <input
              type="radio"
              name="mc"
              value={o.letter}
              checked={value === o.letter}
              onChange={() => onChange(o.letter)}
              className="mt-1"
            />
            <span>
              <span className="font-semibold">{o.letter}</span>{" "}
              <span className="text-xs text-slate-500">({i + 1})</span> {o.text}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Stepper({
  label,
  value,
  min,
  max,
  step,
  unit,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit: string;
  onChange: (v: number) => void;
}) {
  const id = useId();
  const clamp = (v: number) => Math.min(max, Math.max(min, Math.round(v / step) * step));
  return (
    // Label and control on one row: the docking widget's three controls fit the answer column at 1366×768 unscrolled.
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <label htmlFor={id} className="min-w-36 flex-1 text-sm font-medium leading-snug">
        {label}{" "}
        <span className="font-normal text-slate-600">
          ({min} to {max}, steps of {step} {unit})
        </span>
      </label>
      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-label={`decrease ${label}`}
          className="h-9 w-9 rounded border border-slate-400 bg-white text-lg"
          onClick={() => onChange(clamp(value - step))}
        >
          −
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(e) => onChange(clamp(Number(e.target.value)))}
          className="h-9 w-20 rounded border border-slate-400 px-2 text-center"
        />
        <button
          type="button"
          aria-label={`increase ${label}`}
          className="h-9 w-9 rounded border border-slate-400 bg-white text-lg"
          onClick={() => onChange(clamp(value + step))}
        >
          +
        </button>
        <span className="w-4 text-sm text-slate-600">{unit}</span>
      </div>
    </div>
  );
}

function AxisPicker({
  axes,
  value,
  onChange,
  legend,
}: {
  axes: readonly string[];
  value: string;
  onChange: (a: string) => void;
  legend: string;
}) {
  return (
    // The legend floated beside the axis buttons: one row.
    <fieldset>
      <legend className="float-left mr-3 py-1.5 text-sm font-medium">{legend}</legend>
      <div className="flex gap-2">
        {axes.map((a) => (
          // The radio is visually hidden, so its label shows the keyboard focus (the global :focus-visible ring would be
          // drawn around the 1-px hidden input).
          <label
            key={a}
            data-testid="axis-option"
            className={`cursor-pointer rounded border px-4 py-1.5 font-mono has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-blue-600 ${value === a ? "border-blue-700 bg-blue-50" : "border-slate-300 bg-white"}`}
          >
            <input
              type="radio"
              className="sr-only"
              name={legend}
              value={a}
              checked={value === a}
              onChange={() => onChange(a)}
            />
            {a}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function CommandWidget({ widget, onChange }: { widget: WidgetOf<"command">; onChange: (v: string) => void }) {
  const [axis, setAxis] = useState(widget.axes.length === 1 ? widget.axes[0]! : "");
  const [value, setValue] = useState(widget.min > 0 ? widget.min : 0);
  const emit = (a: string, v: number) => {
    if (a) onChange(`${widget.verb} ${a} ${v}`);
  };
  return (
    <div className="space-y-2">
      <AxisPicker
        axes={widget.axes}
        value={axis}
        legend={`${widget.verb} axis`}
        onChange={(a) => {
          setAxis(a);
          emit(a, value);
        }}
      />
      <Stepper
        label={widget.verb === "roll" ? "angle" : "distance"}
        value={value}
        min={widget.min}
        max={widget.max}
        step={widget.step}
        unit={widget.unit}
        onChange={(v) => {
          setValue(v);
          emit(axis, v);
        }}
      />
    </div>
  );
}

export function DockingWidget({ widget, onChange }: { widget: WidgetOf<"docking">; onChange: (v: string) => void }) {
  const [axis, setAxis] = useState("");
  const [angle, setAngle] = useState(0);
  const [move, setMove] = useState(0);
  const emit = (a: string, r: number, m: number) => {
    if (a) onChange(`roll ${a} ${r}, move x ${m}`);
  };
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">First the rotation about the ligand centre, then the move along x.</p>
      <div className="space-y-2">
        <AxisPicker
          axes={widget.rollAxes}
          value={axis}
          legend="roll axis"
          onChange={(a) => {
            setAxis(a);
            emit(a, angle, move);
          }}
        />
        <Stepper
          label="roll angle"
          value={angle}
          min={widget.rollMin}
          max={widget.rollMax}
          step={widget.rollStep}
          unit="°"
          onChange={(v) => {
            setAngle(v);
            emit(axis, v, move);
          }}
        />
        <Stepper
          label="move x distance"
          value={move}
          min={widget.moveMin}
          max={widget.moveMax}
          step={widget.moveStep}
          unit="Å"
          onChange={(v) => {
            setMove(v);
            emit(axis, angle, v);
          }}
        />
      </div>
    </div>
  );
}

interface BondRow {
  residue: number;
  atom: string;
  ligandAtom: string;
}

export function HbondListWidget({
  widget,
  payload,
  onChange,
}: {
  widget: WidgetOf<"hbond-list">;
  payload: unknown;
  onChange: (v: string) => void;
}) {
  const pickers = readPickers(payload);
  const [none, setNone] = useState(false);
  const [rows, setRows] = useState<BondRow[]>([]);
  if (!pickers) return <p className="text-sm text-slate-600">Type your answer in the field below.</p>;

  const residueLabel = (r: PickerResidue) =>
    widget.withResidueNumberAndChain
      ? `${r.residueName} ${r.residueNumber}${r.insertionCode ?? ""} ${r.chainId}`
      : r.residueName;
  const format = (list: BondRow[], isNone: boolean) => {
    if (isNone) return "No";
    const complete = list.filter((b) => b.atom && b.ligandAtom && pickers.residues[b.residue]);
    const text = complete
      .map((b) => {
        const r = pickers.residues[b.residue]!;
        return widget.withResidueNumberAndChain
          ? `${r.residueName} ${r.residueNumber}${r.insertionCode ?? ""} ${b.atom} ${r.chainId}, ${b.ligandAtom}`
          : `${r.residueName} ${b.atom}, ${b.ligandAtom}`;
      })
      .join("; ");
    return widget.yesPrefix ? (text ? `Yes: ${text}` : "") : text;
  };
  const update = (list: BondRow[], isNone: boolean) => {
    setRows(list);
    setNone(isNone);
    onChange(format(list, isNone));
  };
  return (
    <div className="space-y-3">
      {widget.allowNo ? (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={none} onChange={(e) => update(rows, e.target.checked)} /> No hydrogen bonds
        </label>
      ) : null}
      {!none && (
        <>
          {rows.length > 0 ? (
            <div
              className="grid grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)_auto_minmax(0,1fr)_auto] gap-1.5 text-xs text-slate-600"
              aria-hidden
            >
              <span>residue</span>
              <span>residue atom</span>
              <span />
              <span>ligand atom</span>
              <span />
            </div>
          ) : null}
          {rows.map((row, i) => (
            // One grid row per bond: residue, its atom, ligand atom and remove stay on one line in the 400 px answer column.
            <div
              key={i}
              className="grid grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)_auto_minmax(0,1fr)_auto] items-center gap-1.5"
              role="group"
              aria-label={`bond ${i + 1}`}
            >
              <select
                aria-label={`bond ${i + 1} residue`}
                className="w-full min-w-0 rounded border border-slate-400 px-1 py-1"
                value={row.residue}
                onChange={(e) =>
                  update(
                    rows.map((r, j) => (j === i ? { ...r, residue: Number(e.target.value), atom: "" } : r)),
                    false,
                  )
                }
              >
                {pickers.residues.map((r, j) => (
                  <option key={j} value={j}>
                    {residueLabel(r)}
                  </option>
                ))}
              </select>
              <select
                aria-label={`bond ${i + 1} residue atom`}
                className="w-full min-w-0 rounded border border-slate-400 px-1 py-1"
                value={row.atom}
                onChange={(e) =>
                  update(
                    rows.map((r, j) => (j === i ? { ...r, atom: e.target.value } : r)),
                    false,
                  )
                }
              >
                <option value="">atom…</option>
                {(pickers.residues[row.residue]?.atoms ?? []).map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
              <span aria-hidden>↔</span>
              <select
                aria-label={`bond ${i + 1} ligand atom`}
                className="w-full min-w-0 rounded border border-slate-400 px-1 py-1"
                value={row.ligandAtom}
                onChange={(e) =>
                  update(
                    rows.map((r, j) => (j === i ? { ...r, ligandAtom: e.target.value } : r)),
                    false,
                  )
                }
              >
                <option value="">ligand…</option>
                {pickers.ligandAtoms.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
              <button
                type="button"
                aria-label={`remove bond ${i + 1}`}
                title="remove this bond"
                className="rounded px-1.5 text-lg leading-none text-red-700 hover:bg-red-50"
                onClick={() =>
                  update(
                    rows.filter((_, j) => j !== i),
                    false,
                  )
                }
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="rounded border border-slate-400 bg-white px-3 py-1 text-sm"
            onClick={() => update([...rows, { residue: 0, atom: "", ligandAtom: "" }], false)}
          >
            + add a bond
          </button>
        </>
      )}
    </div>
  );
}
