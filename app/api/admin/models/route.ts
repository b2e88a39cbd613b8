import { NextResponse } from "next/server";
import { importModelRun } from "@/lib/server/dal/models/import-model-run";
import { listModelRuns } from "@/lib/server/dal/models/list-model-runs";
import { AppError } from "@/lib/server/errors";
import { MAX_PREDICTION_FILE_BYTES } from "@/lib/model-import/parse-prediction-file";
import { readFormBody } from "@/lib/server/read-json-body";
import { withRole } from "@/lib/server/route";
import { requireStudyAccess } from "@/lib/server/study-access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/admin/models – imported model runs with prediction counts
export const GET = withRole("researcher", async () => {
  return NextResponse.json({ runs: await listModelRuns() });
});

// POST /api/admin/models – import a prediction file (multipart: file, model, name?, studyId?, format?); idempotent by content hash
export const POST = withRole("researcher", async ({ request, user }) => {
  // The file plus a few short fields; multipart framing is well under 64 KB.
  const form = await readFormBody(request, MAX_PREDICTION_FILE_BYTES + 64 * 1024);
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    throw new AppError("UNPROCESSABLE", "Choose a prediction file.", { field: "file" });
  if (file.size > MAX_PREDICTION_FILE_BYTES)
    throw new AppError("UNPROCESSABLE", `The file is larger than ${MAX_PREDICTION_FILE_BYTES} bytes.`, {
      field: "file",
    });
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  };
  const studyId = text("studyId");
  // A model run linked to a study reads its pool version: only for a study the caller may see.
  if (studyId) await requireStudyAccess(user, studyId);
  const result = await importModelRun({
    fileName: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
    input: { model: text("model") ?? "", name: text("name"), studyId, format: text("format") },
    actorId: user.id,
  });
  return NextResponse.json(result, { status: result.status === "created" ? 201 : 200 });
});
