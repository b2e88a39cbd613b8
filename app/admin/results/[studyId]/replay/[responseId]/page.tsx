import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CameraReplay } from "@/components/results/camera-replay";
import { getCameraReplay } from "@/lib/server/dal/results/get-three-d-usage";
import { AppError } from "@/lib/server/errors";
import { requirePageRole } from "@/lib/server/guards";
import { requireStudyAccess } from "@/lib/server/study-access";
import { taskDisplayName } from "@/lib/tasks/display-name";
import type { TaskId } from "@/lib/tasks/types";

export const metadata: Metadata = { title: "Camera path replay" };
export const dynamic = "force-dynamic";

/** One answer's camera path in the interactive 3D view, replayed on the item's scene (researchers with study access). */
export default async function CameraReplayPage({
  params,
}: {
  params: Promise<{ studyId: string; responseId: string }>;
}) {
  const { studyId, responseId } = await params;
  const user = await requirePageRole("researcher", `/admin/results/${studyId}/replay/${responseId}`);
  await requireStudyAccess(user, studyId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const replay = await getCameraReplay(studyId, responseId);
  if (!replay) notFound();
  const u = replay.usage;
  const endMs = u?.answerMs ?? Math.max(0, ...replay.camera.map((c) => c.t));
  return (
    <main className="mx-auto max-w-4xl px-6 py-8">
      <p className="text-sm">
        <Link href={`/admin/results/${studyId}#three-d`} className="underline">
          ← Results
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Camera path replay</h1>
      <p className="mt-1 text-sm text-slate-700">
        {taskDisplayName(replay.taskId as TaskId)} · item <span className="font-mono">{replay.itemId}</span> ·
        participant <span className="font-mono">{replay.participantId}</span> · answer{" "}
        {replay.correct ? "correct" : "wrong"} · {replay.camera.length} camera samples
        {u
          ? ` · 3D view ${(u.time3dMs / 1000).toFixed(1)} s, images ${(u.timeImagesMs / 1000).toFixed(1)} s, total turn ${Math.round(u.rotationDeg)}°, resets ${u.resets}`
          : ""}
      </p>
      <div className="mt-4">
        <CameraReplay scene={replay.scene} camera={replay.camera} events={replay.events} endMs={endMs} />
      </div>
    </main>
  );
}
