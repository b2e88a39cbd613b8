"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FieldErrors, FormStatus } from "./field-errors";
import { sendJson } from "./send-json";
import type { StaffRole } from "@/types/staff-role";

/** Creates a staff account; a generated password is shown once. */
export function UserCreateForm() {
  const router = useRouter();
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<StaffRole>("researcher");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [created, setCreated] = useState<{ email: string; generatedPassword?: string } | null>(null);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setCreated(null);
    const result = await sendJson<{ email: string; generatedPassword?: string }>("POST", "/api/admin/users", {
      email,
      role,
      ...(password ? { password } : {}),
    });
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      setFieldErrors(result.fieldErrors);
      return;
    }
    setFieldErrors({});
    setEmail("");
    setPassword("");
    setCreated(result.data);
    router.refresh();
  }

  const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";
  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-4" aria-label="New account" noValidate>
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium">
          Email
        </label>
        <input
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={input}
        />
        <FieldErrors id={`${id}-email-err`} messages={fieldErrors.email ?? []} />
      </div>
      <div>
        <label htmlFor={`${id}-role`} className="block text-sm font-medium">
          Role
        </label>
        <select
          id={`${id}-role`}
          value={role}
          onChange={(e) => setRole(e.target.value as StaffRole)}
          className={`${input} bg-white`}
        >
          <option value="researcher">researcher</option>
          <option value="admin">admin</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-password`} className="block text-sm font-medium">
          Password (optional)
        </label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className={input}
        />
        <FieldErrors id={`${id}-password-err`} messages={fieldErrors.password ?? []} />
      </div>
      <div className="flex items-end">
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create account"}
        </button>
      </div>
      <div className="sm:col-span-4">
        <FormStatus error={error} success={created ? `Created ${created.email}.` : null} />
        {created?.generatedPassword ? (
          <p className="rounded border border-amber-600 bg-amber-50 p-2 text-sm">
            Generated password (shown once): <span className="font-mono">{created.generatedPassword}</span>
          </p>
        ) : null}
      </div>
    </form>
  );
}
