/** Error messages for one form field, linked from the input with aria-describedby={id}. */
export function FieldErrors({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

/** A form-level status line: errors in red, success in green; announced to screen readers. */
export function FormStatus({
  error,
  success,
  extra = [],
}: {
  error?: string | null;
  success?: string | null;
  extra?: string[];
}) {
  return (
    <div role="status" aria-live="polite" className="min-h-5 text-sm">
      {error ? <p className="text-red-700">{error}</p> : null}
      {extra.map((e, i) => (
        <p key={i} className="text-red-700">
          {e}
        </p>
      ))}
      {success ? <p className="text-green-800">{success}</p> : null}
    </div>
  );
}
