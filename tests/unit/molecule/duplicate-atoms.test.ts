// needs-shared-structures: reads ../shared/data/structures/plip-test-pdb/1aku.pdb
import fs from "node:fs";
import { describe, expect, it } from "vitest";
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
  // File lines 1537–1567 are the 31 FMN HETATM records; repeated right after them (blank altLoc), with a serial of
  // their own so the kept copy can be told apart.
  const fmn = original.slice(1536, 1567);
  const repeated = fmn.map((l) => `${l.slice(0, 6)}${String(9000 + Number(l.slice(6, 11))).padStart(5)}${l.slice(11)}`);
  const text = [...original.slice(0, 1567), ...repeated, ...original.slice(1567)].join("\n");

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
    expect(n1.serial).toBeLessThan(9000);
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]).toBe(
      "dropped 31 duplicate atom records, keeping the first record of each atom: 1aku-dup.pdb:1568: FMN:A:150 N1 (first at line 1537); " +
        "1aku-dup.pdb:1569: FMN:A:150 C2 (first at line 1538); 1aku-dup.pdb:1570: FMN:A:150 O2 (first at line 1539); " +
        "1aku-dup.pdb:1571: FMN:A:150 N3 (first at line 1540); 1aku-dup.pdb:1572: FMN:A:150 C4 (first at line 1541); and 26 more",
    );
  });

  it("a repeat at another position is refused, naming both lines, the atom and the residue", () => {
    const moved = [...repeated];
    moved[3] = `${moved[3]!.slice(0, 30)}${(Number(moved[3]!.slice(30, 38)) + 5).toFixed(3).padStart(8)}${moved[3]!.slice(38)}`;
    const r = parsePdb([...original.slice(0, 1567), ...moved, ...original.slice(1567)].join("\n"), "1aku-moved.pdb");
    expect(r.ok || formatParseError(r.error)).toBe(
      "1aku-moved.pdb:1571: atom N3 of FMN:A:150 is recorded twice at different positions (lines 1540 and 1571, 5.00 Å apart); remove one copy or give them altLoc ids",
    );
  });

  it("two altLocs of one atom are not duplicates", () => {
    const a = "ATOM      1  CA ASER A  10       1.000   2.000   3.000  0.60 10.00           C  ";
    const b = "ATOM      2  CA BSER A  10       1.500   2.000   3.000  0.40 10.00           C  ";
    const s = parse([a, b].join("\n"), "alt.pdb");
    expect(s.notes.some((n) => n.includes("duplicate"))).toBe(false);
  });
});

describe("duplicate atom records in hand-made text", () => {
  const first = "HETATM    1  C1  LIG A 900      10.000  10.000  10.000  1.00 20.00           C  ";
  const second = "HETATM    2  O2  LIG A 900      11.200  10.000  10.000  1.00 20.00           O  ";
  it("an identical repeat is dropped with a note", () => {
    const again = "HETATM    3  C1  LIG A 900      10.000  10.005  10.000  1.00 20.00           C  ";
    const s = parse([first, second, again].join("\n"), "same.pdb");
    expect([s.atoms.length, s.notes]).toEqual([
      2,
      [
        "dropped 1 duplicate atom records, keeping the first record of each atom: same.pdb:3: LIG:A:900 C1 (first at line 1)",
      ],
    ]);
  });
  it("a repeat 0.5 Å away is refused", () => {
    const moved = "HETATM    3  C1  LIG A 900      10.500  10.000  10.000  1.00 20.00           C  ";
    const r = parsePdb([first, second, moved].join("\n"), "moved.pdb");
    expect(r.ok || formatParseError(r.error)).toBe(
      "moved.pdb:3: atom C1 of LIG:A:900 is recorded twice at different positions (lines 1 and 3, 0.50 Å apart); remove one copy or give them altLoc ids",
    );
  });
});
