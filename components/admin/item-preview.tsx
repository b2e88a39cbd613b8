import type { AnswerWidget } from "@/lib/tasks/types";

export interface ItemPreviewProps {
  question: string;
  images: Array<{ id: string; position: number; caption: string }>;
  /** Public fields (Item.payload); MC options are shown from here when present. */
  payload: unknown;
  task: { code: string; label: string; instructions: string; widget: AnswerWidget } | null;
}

/** One line saying what input the participant gets, so curators can check the item is answerable with it. */
export function describeWidget(widget: AnswerWidget): string {
  switch (widget.type) {
    case "mc":
      return `Choose one letter: ${widget.letters.join(", ")}.`;
    case "command":
      return `Command builder: ${widget.verb} <${widget.axes.join("|")}> <value>, value ${widget.min}…${widget.max} ${widget.unit} in steps of ${widget.step}.`;
    case "docking":
      return `Two-part command: roll <${widget.rollAxes.join("|")}> ${widget.rollMin}…${widget.rollMax}° (step ${widget.rollStep}), then move ${widget.moveAxis} ${widget.moveMin}…${widget.moveMax} Å (step ${widget.moveStep}).`;
    case "hbond-list":
      return `H-bond list: ${widget.withResidueNumberAndChain ? "<RES> <resnum> <atom> <chain>, <ligand atom>" : "<RES> <atom>, <ligand atom>"}; …${widget.allowNo ? ", or No" : ""}${widget.yesPrefix ? " (prefixed with Yes:)" : ""}.`;
  }
}

function readOptionTexts(payload: unknown): string[] {
  const options = (payload as { options?: unknown } | null)?.options;
  return Array.isArray(options) ? options.map((o) => (typeof o === "string" ? o : JSON.stringify(o))) : [];
}

/**
 * The participant's view of an item in the static condition: instructions, question text, images in order, MC
 * options and the answer input. Images come from /api/images/<id> (opaque ids), as participants receive them.
 */
export function ItemPreview({ question, images, payload, task }: ItemPreviewProps) {
  const options = readOptionTexts(payload);
  return (
    <div className="space-y-4">
      {task ? (
        <details className="rounded border border-slate-300 bg-slate-50 p-3 text-sm">
          <summary className="cursor-pointer font-medium">
            Instructions shown for {task.code} {task.label}
          </summary>
          <p className="mt-2 whitespace-pre-wrap">{task.instructions}</p>
        </details>
      ) : null}
      <p className="whitespace-pre-wrap text-base leading-relaxed">{question}</p>
      {images.length ? (
        <ol className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-4" aria-label="Images">
          {images.map((img, i) => (
            <li key={img.id} className="overflow-hidden rounded border border-slate-300 bg-black">
              <a href={`/api/images/${img.id}`} target="_blank" rel="noreferrer">
                {/* eslint-disable-next-line @next/next/no-img-element -- opaque-id images from our own API, not optimisable */}
                <img src={`/api/images/${img.id}`} alt={img.caption || `Image ${i + 1}`} className="aspect-square w-full object-contain" />
              </a>
              <span className="block bg-white px-2 py-1 text-sm text-slate-800">{img.caption || `Image ${i + 1}`}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-amber-800">This item has no images.</p>
      )}
      {options.length ? (
        <ol className="space-y-1" aria-label="Options">
          {options.map((text, i) => (
            <li key={i} className="font-mono text-sm">
              {String.fromCharCode(65 + i)}. {text}
            </li>
          ))}
        </ol>
      ) : null}
      {task ? <p className="rounded border border-dashed border-slate-400 px-3 py-2 text-sm">Answer input: {describeWidget(task.widget)}</p> : null}
    </div>
  );
}
