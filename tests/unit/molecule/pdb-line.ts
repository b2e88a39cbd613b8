/** Builds a fixed-column PDB ATOM/HETATM line for hand-made test input (wwPDB v3.3 columns). */
export interface PdbLineFields {
  record?: "ATOM  " | "HETATM";
  serial?: number;
  name: string; // already padded to 4 columns as it appears in columns 13-16, e.g. " CA "
  altLoc?: string;
  resName?: string;
  chain?: string;
  resSeq?: number;
  iCode?: string;
  x: number;
  y: number;
  z: number;
  occupancy?: number;
  element?: string;
  charge?: string;
}

export function pdbLine(f: PdbLineFields): string {
  const num = (v: number, w: number, d: number) => v.toFixed(d).padStart(w);
  return (
    (f.record ?? "ATOM  ") +
    String(f.serial ?? 1).padStart(5) +
    " " +
    f.name.padEnd(4) +
    (f.altLoc ?? " ") +
    (f.resName ?? "ALA").padStart(3) +
    " " +
    (f.chain ?? "A") +
    String(f.resSeq ?? 1).padStart(4) +
    (f.iCode ?? " ") +
    "   " +
    num(f.x, 8, 3) +
    num(f.y, 8, 3) +
    num(f.z, 8, 3) +
    num(f.occupancy ?? 1, 6, 2) +
    num(20, 6, 2) +
    "          " +
    (f.element ?? "").padStart(2) +
    (f.charge ?? "  ")
  );
}
