/** Result of a staff API call, with 422 field errors keyed by path ("config.itemsPerTask"). */
export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; fieldErrors: Record<string, string[]>; formErrors: string[] };

interface ErrorBody {
  error?: { message?: string; details?: unknown };
}

/** Sends JSON to one of our /api/admin routes and sorts the error details by field for the form. */
export async function sendJson<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      message: "The server could not be reached. Check the connection and try again.",
      fieldErrors: {},
      formErrors: [],
    };
  }
  const payload = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, data: payload as T };
  const error = (payload as ErrorBody | null)?.error;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  if (Array.isArray(error?.details)) {
    for (const d of error.details as Array<{ path?: unknown; message?: unknown }>) {
      const path = Array.isArray(d.path) ? d.path.join(".") : typeof d.path === "string" ? d.path : "";
      const message = typeof d.message === "string" ? d.message : "invalid";
      if (path) (fieldErrors[path] ??= []).push(message);
      else formErrors.push(message);
    }
  }
  const fallback =
    response.status === 401
      ? "Your session ended; sign in again."
      : response.status === 403
        ? "Your role may not do this."
        : `Request failed (${response.status}).`;
  return { ok: false, status: response.status, message: error?.message ?? fallback, fieldErrors, formErrors };
}

/** Errors for a field and its sub-paths ("config.prolific" also collects "config.prolific.completionUrl"). */
export function errorsFor(fieldErrors: Record<string, string[]>, path: string, { nested = false } = {}): string[] {
  if (!nested) return fieldErrors[path] ?? [];
  return Object.entries(fieldErrors)
    .filter(([p]) => p === path || p.startsWith(`${path}.`))
    .flatMap(([, m]) => m);
}
