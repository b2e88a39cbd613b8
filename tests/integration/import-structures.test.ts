import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { formatReportEntry } from "@/lib/import/report";
import { db, disconnectDb } from "@/lib/server/db";
import { runImport } from "@/lib/server/import/run-import";
import { getTask } from "@/lib/tasks/registry";
import { describeWithShared, sharedStructurePath } from "../helpers/shared-data";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-import-structures-"));
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await disconnectDb();
});

describeWithShared("structure import", () => {
  it("imports the PoseBusters complexes (protein + ligand file), skips lone ligands, and is idempotent", async () => {
    const dir = sharedStructurePath("posebusters-conftest");
    const first = await runImport({ inputPath: dir });
    expect(first.status).toBe("succeeded");
    expect(first.report).toMatchObject({
      kind: "structures",
      imported: 9,
      duplicates: 0,
      counts: { skipped: 6, errors: 0 },
    });
    expect(first.report.byTask).toEqual({ structures: 9 });
    expect(first.report.warnings).toEqual([]);
    const rq3 = await db.structure.findFirstOrThrow({ where: { sourceFile: "1G9V_RQ3/1G9V_RQ3_protein.pdb" } });
    expect(rq3).toMatchObject({ pdbId: "1g9v", format: "pdb", ligandSpec: null });
    expect(rq3.ligandFile).toMatchObject({ name: "1G9V_RQ3/1G9V_RQ3_ligand.sdf", format: "sdf" });
    expect((rq3.ligandFile as { text: string }).text).toBe(
      fs.readFileSync(path.join(dir, "1G9V_RQ3", "1G9V_RQ3_ligand.sdf"), "utf8"),
    );
    expect(rq3.content).toBe(fs.readFileSync(path.join(dir, "1G9V_RQ3", "1G9V_RQ3_protein.pdb"), "utf8"));
    const mol2 = await db.structure.findFirstOrThrow({ where: { sourceFile: "5ze6/5ze6_cond.pdb" } });
    expect(mol2.ligandFile).toMatchObject({ name: "5ze6/5ze6_true.mol2", format: "mol2" });

    const again = await runImport({ inputPath: dir });
    expect(again.report).toMatchObject({ imported: 0, duplicates: 9 });
  });

  it("chooses the ligand of a lone PDB automatically or as named, and refuses a residue that is not there", async () => {
    const file = path.join(work, "1acj.pdb");
    fs.copyFileSync(sharedStructurePath("plip-test-pdb", "1acj.pdb"), file);
    const auto = await runImport({ inputPath: file, dryRun: true });
    expect(auto.report).toMatchObject({ kind: "structures", imported: 1 });
    expect(auto.report.notes.map(formatReportEntry)).toContain(
      "1acj.pdb: structure: ligand chosen automatically: THA:A:999 (15 heavy atoms)",
    );

    const named = await runImport({ inputPath: file, ligand: "THA:A:999" });
    expect(named.report).toMatchObject({ imported: 1 });
    const stored = await db.structure.findFirstOrThrow({ where: { sourceFile: "1acj.pdb", ligandSpec: "THA:A:999" } });
    expect(stored.pdbId).toBe("1acj");

    const wrong = await runImport({ inputPath: file, ligand: "NAG:A:1" });
    expect(wrong.report.imported).toBe(0);
    expect(wrong.report.skipped.map(formatReportEntry)).toEqual([
      expect.stringMatching(/^1acj\.pdb: ligand: 1acj\.pdb: no residue NAG:A:1; non-polymer residues: /),
    ]);
  });

  it("skips a complex whose only hetero groups are sugars, with the reason, and a structure file that does not parse", async () => {
    const dir = path.join(work, "mixed");
    fs.mkdirSync(dir);
    fs.copyFileSync(sharedStructurePath("plip-test-pdb", "4rdl.pdb"), path.join(dir, "4rdl.pdb"));
    fs.writeFileSync(
      path.join(dir, "9bad.pdb"),
      "ATOM      1  N   ALA A   1      11.104  abc.def  1.000  1.00 20.00           N\n",
    );
    const result = await runImport({ inputPath: dir, dryRun: true });
    expect(result.report.imported).toBe(0);
    expect(result.report.skipped.map(formatReportEntry)).toEqual([
      expect.stringMatching(/^4rdl\.pdb: ligand: 4rdl\.pdb: no ligand candidate \(skipped: FUC:A:601 \(sugar\), /),
      expect.stringMatching(/^9bad\.pdb:1: y coordinate \(columns 39-46\): /),
    ]);
  });

  it("generates items from the structures with the task engine, linked to their Structure rows, and is idempotent", async () => {
    const dir = path.join(work, "gen");
    fs.mkdirSync(dir);
    for (const f of ["1aku.pdb", "1acj.pdb"])
      fs.copyFileSync(sharedStructurePath("plip-test-pdb", f), path.join(dir, f));
    const generate = {
      tasks: ["translation", "rotation"] as const,
      perTask: 2,
      seed: `it-${path.basename(work)}`,
      sizePx: 64,
      format: "svg" as const,
    };
    const first = await runImport({ inputPath: dir, generate: { ...generate, tasks: [...generate.tasks] } });
    expect(first.status).toBe("succeeded");
    expect(first.report.byTask).toEqual({ structures: 2, translation: 2, rotation: 2 });
    expect(first.report.notes.map(formatReportEntry)).toContain(
      `gen: generation: generated 4 item(s) from 2 complex(es), seed '${generate.seed}'`,
    );
    const items = await db.item.findMany({
      where: { importBatchId: first.batchId },
      include: { answerKey: true, images: true, structure: true },
    });
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item.source).toBe("generated");
      expect(item.seed).toMatch(new RegExp(`^${generate.seed}/(translation|rotation)/\\d$`));
      expect(item.structure?.pdbId).toBe(item.pdbId);
      expect(item.images).toHaveLength(4);
      expect(
        item.images.every(
          (im) => im.mimeType === "image/svg+xml" && Buffer.from(im.data).toString().startsWith("<svg"),
        ),
      ).toBe(true);
      // The stored key grades its own canonical answer as exact.
      const graded = getTask(item.taskId).gradeText(item.answerKey!.canonical, item.answerKey!.gold);
      expect(graded).toMatchObject({ ok: true, score: { exact: 1 } });
    }
    const again = await runImport({ inputPath: dir, generate: { ...generate, tasks: [...generate.tasks] } });
    expect(again.report).toMatchObject({ imported: 0, duplicates: 6 });
  }, 120_000);
});
