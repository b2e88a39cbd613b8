import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { StudyConfigSchema } from "@/lib/study-config";
import { StudyForm } from "@/components/admin/study-form";
import { loadStudyFormChoices } from "../_study-form-props";

export const metadata: Metadata = { title: "New study" };
export const dynamic = "force-dynamic";

export default async function NewStudyPage() {
  await requirePageRole("researcher", "/admin/studies/new");
  const { poolVersions, tasks } = await loadStudyFormChoices();
  return (
    <main className="mx-auto max-w-4xl px-6 py-8">
      <p className="text-sm">
        <Link href="/admin/studies" className="underline">
          ← Studies
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">New study</h1>
      <p className="mt-1 text-sm text-slate-700">
        The study starts as a draft; open it from its page once the pool version is frozen.
      </p>
      {poolVersions.length === 0 ? (
        <p className="mt-4 rounded border border-amber-600 bg-amber-50 p-3 text-sm">
          There is no pool yet. An admin must build (and freeze) one first.
        </p>
      ) : null}
      <div className="mt-6 rounded border border-slate-300 bg-white p-5">
        <StudyForm
          mode="create"
          initial={{
            name: "",
            slug: "",
            poolVersionId: poolVersions[0]?.id ?? "",
            config: StudyConfigSchema.parse({}),
          }}
          poolVersions={poolVersions}
          tasks={tasks}
        />
      </div>
    </main>
  );
}
