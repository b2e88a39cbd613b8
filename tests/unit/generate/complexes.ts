/**
 * Test helper: generator complexes from the shared structures (read in place, never copied).
 * Loaded once per file and cached: preparation and H-bond search take a few tens of ms each.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { type GeneratorComplex, loadGeneratorComplex } from "@/lib/generate";
import { sharedStructurePath } from "../../helpers/shared-data";

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
    ...(spec.ligandFile && ligandBytes ? { ligandFile: spec.ligandFile, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha(ligandBytes) } : {}),
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
  { pdbId: "1s3v", file: "posebusters-conftest/1s3v/1s3v_protein_one_lig_removed.pdb", ligandFile: "posebusters-conftest/1s3v/1s3v_ligand.sdf" },
  { pdbId: "1acj", file: "plip-test-pdb/1acj.pdb" },
];

export function loadTestComplexes(): GeneratorComplex[] {
  return TEST_COMPLEXES.map(loadComplex);
}
