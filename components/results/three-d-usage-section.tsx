import Link from "next/link";
import { ROTATED_THRESHOLD_DEG, type Distribution } from "@/lib/results/three-d-usage";
import { taskDisplayName } from "@/lib/tasks/display-name";
import type { TaskId } from "@/lib/tasks/types";
import type { ThreeDUsageDto } from "@/lib/server/dal/results/get-three-d-usage";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums whitespace-nowrap";

function dist(d: Distribution, format: (v: number) => string): string {
  return `${format(d.median)} [${format(d.q1)}–${format(d.q3)}]`;
}

const pct = (v: number) => `${Math.round(v * 100)} %`;
const deg = (v: number) => `${Math.round(v)}°`;
const times = (v: number) => `${v.toFixed(2)}×`;

function accuracy(group: { answers: number; correct: number }): string {
  return group.answers === 0
    ? "–"
    : `${Math.round((100 * group.correct) / group.answers)} % (${group.correct}/${group.answers})`;
}

/**
 * How participants in the interactive condition used the 3D view, per task: medians with quartiles, and accuracy of
 * answers that turned the view against those that did not (an association, not an effect: participants chose to turn).
 */
export function ThreeDUsageSection({
  usage,
  replayHref,
}: {
  usage: ThreeDUsageDto;
  replayHref: (studyId: string, responseId: string) => string;
}) {
  if (usage.interactiveAnswers === 0) {
    return <p className="mt-2 text-sm text-slate-700">No answers in the interactive condition yet.</p>;
  }
  const examples = new Map(usage.examples.map((e) => [e.taskId, e]));
  return (
    <>
      <p className="mt-1 max-w-4xl text-sm text-slate-700">
        From the camera path and view changes recorded with each answer: {usage.withViewer} of{" "}
        {usage.interactiveAnswers} interactive-condition answers had the 3D view on screen. Median [quartiles].
        &quot;Turned&quot; means a total rotation of at least {ROTATED_THRESHOLD_DEG}°; accuracy of turned and unturned
        answers is an association (participants chose whether to turn), not the effect of the 3D view.
      </p>
      <DataTable variant="ruled" className="mt-3" data-testid="three-d-usage">
        <thead>
          <tr className="border-b border-slate-300 bg-slate-50">
            <Th variant="ruled" scope="col">
              Task
            </Th>
            <Th variant="ruled" scope="col">
              Answers
            </Th>
            <Th variant="ruled" scope="col">
              Time on the 3D view
            </Th>
            <Th variant="ruled" scope="col">
              Total turn
            </Th>
            <Th variant="ruled" scope="col">
              Zoom in
            </Th>
            <Th variant="ruled" scope="col">
              Reset / labels
            </Th>
            <Th variant="ruled" scope="col">
              Accuracy, turned
            </Th>
            <Th variant="ruled" scope="col">
              Accuracy, not turned
            </Th>
            <Th variant="ruled" scope="col">
              Median turn, correct / wrong
            </Th>
            <Th variant="ruled" scope="col">
              Camera path
            </Th>
          </tr>
        </thead>
        <tbody>
          {usage.tasks.map((t) => {
            const example = examples.get(t.taskId);
            return (
              <tr key={t.taskId} className="border-b border-slate-200">
                <Th variant="ruled" scope="row" className="whitespace-nowrap">
                  {taskDisplayName(t.taskId as TaskId)}
                </Th>
                <td className={TD}>{t.answers}</td>
                <td className={TD}>{dist(t.share3d, pct)}</td>
                <td className={TD}>{dist(t.rotationDeg, deg)}</td>
                <td className={TD}>{dist(t.zoomIn, times)}</td>
                <td className={TD}>
                  {t.withReset} / {t.withLabelToggle}
                </td>
                <td className={TD}>{accuracy(t.rotated)}</td>
                <td className={TD}>{accuracy(t.notRotated)}</td>
                <td className={TD}>
                  {t.medianRotationCorrect === null ? "–" : deg(t.medianRotationCorrect)} /{" "}
                  {t.medianRotationWrong === null ? "–" : deg(t.medianRotationWrong)}
                </td>
                <td className={TD}>
                  {example ? (
                    <Link href={replayHref(example.studyId, example.responseId)} className="text-blue-700 underline">
                      Replay a typical answer ({deg(example.rotationDeg)})
                    </Link>
                  ) : (
                    "–"
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </DataTable>
    </>
  );
}
