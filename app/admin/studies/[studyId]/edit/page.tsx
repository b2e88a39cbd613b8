import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/server/guards";
import { requireStudyPage } from "@/lib/server/study-access";
import { AppError } from "@/lib/server/errors";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { StudyConfigSchema } from "@/lib/study-config";
import { StudyForm } from "@/components/admin/study-form";
import { loadStudyFormChoices } from "../../_study-form-props";

export const metadata: Metadata = { title: "Edit study" };
export const dynamic = "force-dynamic";

export default async function EditStudyPage({ params }: { params: Promise<{ studyId: string }> }) {
  const { studyId } = await params;
  const user = await requirePageRole("researcher", `/admin/studies/${studyId}/edit`);
  await requireStudyPage(user, studyId);
  const study = await getStudy(studyId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const { poolVersions, tasks } = await loadStudyFormChoices();
  return (
    <main className="mx-auto max-w-4xl px-6 py-8">
      <p className="text-sm">
        <Link href={`/admin/studies/${study.id}`} className="underline">
          ← {study.name}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Edit study</h1>
      {!study.editable ? (
        <p role="alert" className="mt-4 rounded border border-amber-600 bg-amber-50 p-3 text-sm">
          {study.status === "open"
            ? "Close the study before editing it."
            : "Participants have already joined; the configuration is locked. Create a new study instead."}
        </p>
      ) : (
        <div className="mt-6 rounded border border-slate-300 bg-white p-5">
          {study.configError ? (
            <p className="mb-4 text-sm text-red-700">
              The stored configuration no longer validates ({study.configError}); defaults are shown where needed.
            </p>
          ) : null}
          <StudyForm
            mode="edit"
            studyId={study.id}
            initial={{
              name: study.name,
              slug: study.slug,
              poolVersionId: study.poolVersion.id,
              config: study.config ?? StudyConfigSchema.parse({}),
            }}
            poolVersions={poolVersions}
            tasks={tasks}
          />
        </div>
      )}
    </main>
  );
}
