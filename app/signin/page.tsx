import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-site paths are accepted as a post-sign-in destination (no open redirect). */
function safeCallback(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.startsWith("/") && !v.startsWith("//") ? v : "/admin";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  return (
    <main className="mx-auto max-w-sm px-6 py-16">
      <h1 className="text-2xl font-semibold">Researcher and admin sign-in</h1>
      <p className="mt-2 text-sm text-slate-600">Participants do not need an account: use the study link you were given.</p>
      <SignInForm callbackUrl={safeCallback(params.callbackUrl)} />
    </main>
  );
}
