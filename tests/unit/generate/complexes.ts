/**
 * Test helper: generator complexes from the shared structures (read in place, never copied).
 * Loaded once per file and cached: preparation and H-bond search take a few tens of ms each.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { type GeneratorComplex, loadGeneratorComplex } from "@/lib/generate";
import { findStructurePdbId, groupStructureFiles, isStructureFile } from "@/lib/import/structure-files";
import { SHARED_STRUCTURES_DIR, sharedStructurePath } from "../../helpers/shared-data";

export interface ComplexSpec {
  pdbId: string;
  /** Path under the shared structures folder. */
  file: string;
  ligandFile?: string;
  pocketCutoffA?: number;
}

const cache = new Map<string, GeneratorComplex>();

export function loadComplex(spec: ComplexSpec): GeneratorComplex {
  const key = JSON.stringify(spec);
  const hit = cache.get(key);
  if (hit) return hit;
  const bytes = readFileSync(sharedStructurePath(spec.file));
  const ligandBytes = spec.ligandFile ? readFileSync(sharedStructurePath(spec.ligandFile)) : undefined;
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  const loaded = loadGeneratorComplex({
    pdbId: spec.pdbId,
    file: spec.file,
    text: bytes.toString("utf8"),
    sha256: sha(bytes),
    ...(spec.ligandFile && ligandBytes
      ? { ligandFile: spec.ligandFile, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha(ligandBytes) }
      : {}),
    ...(spec.pocketCutoffA !== undefined ? { prepareOptions: { pocketCutoffA: spec.pocketCutoffA } } : {}),
  });
  if (!loaded.ok) throw new Error(loaded.reason);
  cache.set(key, loaded.complex);
  return loaded.complex;
}

/**
 * A small varied set: single-chain PDB entries with several H-bonds (1osn chain B, 4qnb, 1aku), a
 * two-chain pocket (1hii), a PoseBusters protein + SDF ligand split (1s3v), and one complex without
 * any pocket–ligand H-bond (1acj, tacrine in acetylcholinesterase).
 */
export const TEST_COMPLEXES: ComplexSpec[] = [
  { pdbId: "1osn", file: "plip-test-pdb/1osn.pdb" },
  { pdbId: "4qnb", file: "plip-test-pdb/4qnb.pdb" },
  { pdbId: "1aku", file: "plip-test-pdb/1aku.pdb" },
  { pdbId: "1hii", file: "plip-test-pdb/1hii.pdb" },
  {
    pdbId: "1s3v",
    file: "posebusters-conftest/1s3v/1s3v_protein_one_lig_removed.pdb",
    ligandFile: "posebusters-conftest/1s3v/1s3v_ligand.sdf",
  },
  { pdbId: "1acj", file: "plip-test-pdb/1acj.pdb" },
];

export function loadTestComplexes(): GeneratorComplex[] {
  return TEST_COMPLEXES.map(loadComplex);
}

let allShared: GeneratorComplex[] | null = null;

/** Every complex under the shared structures folder that loads with default options, as the benches read them (a few seconds). */
export function loadAllSharedComplexes(): GeneratorComplex[] {
  if (allShared) return allShared;
  const files = readdirSync(SHARED_STRUCTURES_DIR, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(SHARED_STRUCTURES_DIR, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .filter(isStructureFile)
    .sort();
  const out: GeneratorComplex[] = [];
  for (const group of groupStructureFiles(files).complexes) {
    const text = readFileSync(sharedStructurePath(group.protein), "utf8");
    const pdbId = findStructurePdbId(group.protein, text);
    if (!pdbId) continue;
    try {
      out.push(loadComplex({ pdbId, file: group.protein, ...(group.ligand ? { ligandFile: group.ligand } : {}) }));
    } catch {
      // A structure the generator cannot use with default options (e.g. a sugar-only ligand) is left out, as in the benches.
    }
  }
  allShared = out;
  return out;
}
