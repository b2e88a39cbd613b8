import type { StructureFormat } from "../types";
import { parseMol2 } from "./mol2";
import { type ParseResult } from "./parse-result";
import { parsePdb } from "./pdb";
import { type SmallMoleculeOptions, parseSdf } from "./sdf";

export { formatParseError, type ParseError, type ParseResult } from "./parse-result";
export { parsePdb, inferElementFromAtomName, decodeHybrid36 } from "./pdb";
export { parseSdf, DEFAULT_LIGAND_RES_NAME, type SmallMoleculeOptions } from "./sdf";
export { parseMol2, elementFromTriposType } from "./mol2";

const EXTENSION_FORMATS: Readonly<Record<string, StructureFormat>> = {
  pdb: "pdb",
  ent: "pdb",
  sdf: "sdf",
  sd: "sdf",
  mol: "sdf",
  mol2: "mol2",
};

/**
 * Format from the file extension, else from the content: "@<TRIPOS>" → MOL2, a V2000/V3000 counts
 * line or "M  END" → SDF, ATOM/HETATM records → PDB. Null when nothing fits.
 */
export function detectFormat(fileName: string, text: string): StructureFormat | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext && EXTENSION_FORMATS[ext]) return EXTENSION_FORMATS[ext];
  if (text.includes("@<TRIPOS>")) return "mol2";
  if (/^.{33,39}V[23]000/m.test(text) || /^M {2}END/m.test(text)) return "sdf";
  if (/^(ATOM {2}|HETATM)/m.test(text)) return "pdb";
  return null;
}

/** Parses a structure file of any supported format; `format` overrides detection. */
export function parseStructure(
  text: string,
  fileName: string,
  options: SmallMoleculeOptions & { format?: StructureFormat } = {},
): ParseResult {
  const format = options.format ?? detectFormat(fileName, text);
  switch (format) {
    case "pdb":
      return parsePdb(text, fileName);
    case "sdf":
      return parseSdf(text, fileName, options);
    case "mol2":
      return parseMol2(text, fileName, options);
    case null:
      return {
        ok: false,
        error: {
          fileName,
          line: 0,
          reason: "unknown format: expected .pdb, .ent, .sdf, .sd, .mol or .mol2 (or recognisable content)",
        },
      };
  }
}
