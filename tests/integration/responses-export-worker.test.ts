import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { databaseUrl } from "@/lib/server/env";
import { createTableStream } from "@/lib/server/export/table-stream";
import { iterateResponseRows } from "@/lib/server/export/iterate-response-rows";
import { createResponsesWorkerStream } from "@/lib/server/export/responses-worker-stream";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

let fixture: ResultsStudyFixture;

beforeAll(async () => {
  fixture = await createResultsStudy("export-worker");
});

afterAll(async () => {
  await disconnectDb();
});

describe("responses export in a worker thread", () => {
  it("writes exactly the bytes of the in-process export, across several pages", async () => {
    const inProcess = await readAll(createTableStream(RESPONSES_TABLE, iterateResponseRows([fixture.studyId], 7)));
    const worker = await readAll(createResponsesWorkerStream({ databaseUrl, studyIds: [fixture.studyId], pageRows: 7 }));
    expect(inProcess.split("\n").length).toBeGreaterThan(20);
    expect(worker).toBe(inProcess);
  });

  it("stops when the reader goes away, and reports a database failure as a stream error", async () => {
    const stream = createResponsesWorkerStream({ databaseUrl, studyIds: [fixture.studyId], pageRows: 5 });
    const first = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
    expect(first.toString("utf8")).toMatch(/^response_id,/);
    stream.destroy();
    await new Promise((resolve) => stream.once("close", resolve));
    const bad = createResponsesWorkerStream({ databaseUrl: databaseUrl.replace(/\/[^/?]+(\?|$)/, "/misi_no_such_db$1"), studyIds: ["x"] });
    await expect(readAll(bad)).rejects.toThrow(/responses export failed: .*misi_no_such_db/);
  });
});
