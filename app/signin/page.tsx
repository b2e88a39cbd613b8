import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";
import { toSafeLocalPath } from "@/lib/safe-url";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-origin paths are accepted as a post-sign-in destination (no open redirect). */
function safeCallback(value: string | string[] | undefined): string {
  return toSafeLocalPath(Array.isArray(value) ? value[0] : value, "/admin");
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  return (
    <main className="mx-auto max-w-sm px-6 py-16">
      <h1 className="text-2xl font-semibold">Researcher and admin sign-in</h1>
      <p className="mt-2 text-sm text-slate-600">
        Participants do not need an account: use the study link you were given.
      </p>
      <SignInForm callbackUrl={safeCallback(params.callbackUrl)} />
    </main>
  );
}
