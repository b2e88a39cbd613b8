import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

/**
 * A small, valid item bundle (lib/bundle/format.ts) for end-to-end tests: `perTask` items of T1 translation,
 * T2 rotation and T3 zooming, all in their own split (`e2e-<tag>`) so a pool can be built from exactly these items.
 */
export interface TestBundle {
  tag: string;
  split: string;
  tasks: string[];
  perTask: number;
  /** Folder with manifest.json, items.jsonl, answers.jsonl, images/. */
  dir: string;
  /** The same bundle as a zip (stored, no compression). */
  zipPath: string;
  zipBytes: Buffer;
}

const PDB_IDS = ["1a2b", "2c3d", "3e4f", "4g5h", "5i6j", "6k7l", "7m8n", "8o9p"];

function svg(label: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="#000"/>` +
      `<circle cx="${30 + (label.length % 30)}" cy="48" r="10" fill="#BF99F2"/><text x="4" y="90" fill="#fff" font-size="10">${label}</text></svg>`,
  );
}

function itemFor(task: string, i: number): { question: string; gold: unknown; answer: string } {
  const pdbId = PDB_IDS[i % PDB_IDS.length]!;
  switch (task) {
    case "translation": {
      const axis = i % 2 ? "y" : "x";
      const d = (i % 4) + 1;
      return {
        question: `Complex ${pdbId}: which translation turns image 1 into image 4?`,
        gold: { axis, distanceA: d },
        answer: `move ${axis} ${d}`,
      };
    }
    case "rotation": {
      const axis = ["x", "y", "z"][i % 3]!;
      const a = 15 * ((i % 6) + 1);
      return {
        question: `Complex ${pdbId}: which rotation turns image 1 into image 4?`,
        gold: { axis, angleDeg: a },
        answer: `roll ${axis} ${a}`,
      };
    }
    case "zooming": {
      const d = 40 + i;
      return {
        question: `Complex ${pdbId}: how far along z was the complex moved?`,
        gold: { distanceA: d },
        answer: `move z ${d}`,
      };
    }
    default:
      throw new Error(`no test bundle items for task ${task}`);
  }
}

export function createTestBundle(options: { perTask?: number } = {}): TestBundle {
  const perTask = options.perTask ?? 6;
  const tag = randomBytes(4).toString("hex");
  const split = `e2e-${tag}`;
  const tasks = ["translation", "rotation", "zooming"];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `misi-bundle-${tag}-`));
  fs.mkdirSync(path.join(dir, "images"));
  const items: string[] = [];
  const answers: string[] = [];
  const files: Array<{ name: string; data: Buffer }> = [];
  for (const task of tasks) {
    for (let i = 0; i < perTask; i++) {
      const id = `${tag}-${task}-${i}`;
      const { question, gold, answer } = itemFor(task, i);
      const images = ["front view", "left view", "top view", "front view after"].map((caption, p) => {
        const file = `images/${randomBytes(6).toString("hex")}.svg`;
        const data = svg(`${task[0]}${i}${p}`);
        fs.writeFileSync(path.join(dir, file), data);
        files.push({ name: file, data });
        return { file, caption: `Image ${p + 1}: ${caption}` };
      });
      items.push(
        JSON.stringify({
          id,
          task,
          taskVersion: 1,
          split,
          pdbId: PDB_IDS[i % PDB_IDS.length],
          question: `${question} (${tag} #${i})`,
          fields: { pdbId: PDB_IDS[i % PDB_IDS.length] },
          images,
        }),
      );
      answers.push(JSON.stringify({ id, answer, gold }));
    }
  }
  const manifest = JSON.stringify(
    {
      format: "misi-baseline-bundle",
      formatVersion: 1,
      generator: { name: "e2e", version: "1" },
      counts: Object.fromEntries(tasks.map((t) => [t, perTask])),
    },
    null,
    2,
  );
  const top: Array<{ name: string; data: Buffer }> = [
    { name: "manifest.json", data: Buffer.from(manifest) },
    { name: "items.jsonl", data: Buffer.from(`${items.join("\n")}\n`) },
    { name: "answers.jsonl", data: Buffer.from(`${answers.join("\n")}\n`) },
  ];
  for (const f of top) fs.writeFileSync(path.join(dir, f.name), f.data);
  const zipBytes = createStoredZip([...top, ...files]);
  const zipPath = path.join(os.tmpdir(), `misi-bundle-${tag}.zip`);
  fs.writeFileSync(zipPath, zipBytes);
  return { tag, split, tasks, perTask, dir, zipPath, zipBytes };
}

/** A minimal zip writer (method 0, "stored"): enough for test fixtures, no dependency. */
export function createStoredZip(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
