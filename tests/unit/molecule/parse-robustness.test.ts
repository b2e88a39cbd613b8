import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/rng";
import { parseStructure } from "@/lib/molecule/parse";
import { SHARED_AVAILABLE, SHARED_SKIP_NOTE, sharedStructurePath } from "@/tests/helpers/shared-data";

/**
 * Malformed input must never crash a parser: every damaged file either parses or returns a located
 * error. The damage is seeded, so a failure reproduces.
 */
const FILES: readonly [string, string[]][] = [
  ["1aku.pdb", ["plip-test-pdb", "1aku.pdb"]],
  ["ligand.sdf", ["posebusters-conftest", "1G9V_RQ3", "1G9V_RQ3_ligand.sdf"]],
  ["ligand.mol2", ["posebusters-conftest", "5ze6", "5ze6_true.mol2"]],
];
const MUTATIONS_PER_FILE = 150;
const JUNK = "0123456789 .-+xX$M@#\t";

describe("parsers survive damaged input", () => {
  (SHARED_AVAILABLE ? it : it.skip).each(FILES)(
    `%s${SHARED_AVAILABLE ? "" : ` — ${SHARED_SKIP_NOTE}`}`,
    (name, parts) => {
      const lines = fs.readFileSync(sharedStructurePath(...parts), "utf8").split("\n");
      const rng = createRng(`damage:${name}`);
      let errors = 0;
      for (let k = 0; k < MUTATIONS_PER_FILE; k++) {
        const copy = lines.slice();
        const i = rng.int(0, Math.min(copy.length - 1, 80));
        const line = copy[i]!;
        switch (rng.int(0, 3)) {
          case 0: // truncate a line
            copy[i] = line.slice(0, rng.int(0, line.length));
            break;
          case 1: // overwrite one character
            if (line.length > 0) {
              const c = rng.int(0, line.length - 1);
              copy[i] = line.slice(0, c) + rng.pick([...JUNK]) + line.slice(c + 1);
            }
            break;
          case 2: // drop a line
            copy.splice(i, 1);
            break;
          default: // cut the file
            copy.length = i;
        }
        const result = parseStructure(copy.join("\n"), name);
        if (!result.ok) {
          errors += 1;
          expect(result.error.fileName).toBe(name);
          expect(result.error.line).toBeGreaterThanOrEqual(0);
          expect(result.error.reason.length).toBeGreaterThan(0);
        } else {
          for (const a of result.structure.atoms) expect(Number.isFinite(a.x + a.y + a.z)).toBe(true);
        }
      }
      // the damage must actually be detected some of the time, or this test proves nothing
      expect(errors).toBeGreaterThan(0);
    },
  );
});
