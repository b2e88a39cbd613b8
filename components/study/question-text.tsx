/** Lines "A. …" to "D. …" in a question text: the MC options the task template lists. */
const OPTION_LINE = /^([A-D])\.\s+(.+)$/;

/**
 * The question as paragraphs (the template's line breaks are kept, never run together); its option lines become a
 * list, or are left out when the answer widget already lists the same options (`optionsShownElsewhere`).
 */
export function QuestionText({ text, optionsShownElsewhere }: { text: string; optionsShownElsewhere: boolean }) {
  const blocks: Array<
    { kind: "p"; text: string } | { kind: "options"; items: Array<{ letter: string; text: string }> }
  > = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const option = OPTION_LINE.exec(line);
    if (option) {
      const last = blocks[blocks.length - 1];
      const item = { letter: option[1]!, text: option[2]! };
      if (last?.kind === "options") last.items.push(item);
      else blocks.push({ kind: "options", items: [item] });
    } else blocks.push({ kind: "p", text: line });
  }
  return (
    <div className="space-y-2 leading-relaxed" data-testid="question-text">
      {blocks.map((b, i) =>
        b.kind === "p" ? (
          <p key={i}>{b.text}</p>
        ) : optionsShownElsewhere ? null : (
          <ul key={i} className="space-y-1 pl-1" aria-label="Options">
            {b.items.map((o) => (
              <li key={o.letter}>
                <span className="font-semibold">{o.letter}.</span> {o.text}
              </li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}
