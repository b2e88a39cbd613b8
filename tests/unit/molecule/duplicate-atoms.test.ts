// needs-shared-structures: reads ../shared/data/structures/plip-test-pdb/1aku.pdb
import fs from "node:fs";
import { expect, it } from "vitest";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import type { Structure } from "@/lib/molecule/types";
import { SHARED_AVAILABLE, describeWithShared, sharedStructurePath } from "@/tests/helpers/shared-data";

function parse(text: string, name: string): Structure {
  const r = parsePdb(text, name);
  if (!r.ok) throw new Error(formatParseError(r.error));
  return r.structure;
}

describeWithShared("duplicate atom records (1aku with its FMN block repeated)", () => {
  // Read while collecting, so only when the shared structures are there (the suite is skipped otherwise).
  const original = SHARED_AVAILABLE
    ? fs.readFileSync(sharedStructurePath("plip-test-pdb", "1aku.pdb"), "utf8").split("\n")
    : [];
  // File lines 1537–1567 are the 31 FMN HETATM records; repeated right after them (blank altLoc), moved 5 Å in x so
  // the kept copy can be told apart.
  const fmn = original.slice(1536, 1567);
  const shifted = fmn.map(
    (l) => `${l.slice(0, 30)}${(Number(l.slice(30, 38)) + 5).toFixed(3).padStart(8)}${l.slice(38)}`,
  );
  const text = [...original.slice(0, 1567), ...shifted, ...original.slice(1567)].join("\n");

  it("the original file has no duplicates and no note about them", () => {
    expect(fmn).toHaveLength(31);
    expect(fmn.every((l) => l.startsWith("HETATM") && l.slice(17, 20) === "FMN")).toBe(true);
    expect(parse(original.join("\n"), "1aku.pdb").notes).toEqual([]);
  });

  it("keeps the first record of each atom and says where the 31 repeats are (file, line, atom)", () => {
    const before = parse(original.join("\n"), "1aku.pdb");
    const s = parse(text, "1aku-dup.pdb");
    expect(s.atoms).toHaveLength(before.atoms.length);
    const n1 = s.atoms.find((a) => a.resName === "FMN" && a.name === "N1")!;
    expect(n1.x).toBe(0.574);
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]).toBe(
      "dropped 31 duplicate atom records, keeping the first record of each atom: 1aku-dup.pdb:1568: FMN:A:150 N1 (first at line 1537); " +
        "1aku-dup.pdb:1569: FMN:A:150 C2 (first at line 1538); 1aku-dup.pdb:1570: FMN:A:150 O2 (first at line 1539); " +
        "1aku-dup.pdb:1571: FMN:A:150 N3 (first at line 1540); 1aku-dup.pdb:1572: FMN:A:150 C4 (first at line 1541); and 26 more",
    );
  });

  it("two altLocs of one atom are not duplicates", () => {
    const a = "ATOM      1  CA ASER A  10       1.000   2.000   3.000  0.60 10.00           C  ";
    const b = "ATOM      2  CA BSER A  10       1.500   2.000   3.000  0.40 10.00           C  ";
    const s = parse([a, b].join("\n"), "alt.pdb");
    expect(s.notes.some((n) => n.includes("duplicate"))).toBe(false);
  });
});
