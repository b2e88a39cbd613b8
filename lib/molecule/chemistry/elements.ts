/**
 * Element table: CPK colours, covalent and van der Waals radii.
 *
 * Sources (values restated, not copied from any program):
 * - Covalent radii: Cordero et al., "Covalent radii revisited", Dalton Trans. 2008, 2832–2838
 *   (doi:10.1039/b801115j); C is the sp3 value, Mn/Fe/Co the low-spin values.
 * - Van der Waals radii: Bondi, J. Phys. Chem. 1964, 68, 441 (doi:10.1021/j100785a001), completed for
 *   main-group elements by Mantina et al., J. Phys. Chem. A 2009, 113, 5806 (doi:10.1021/jp8111556).
 *   Elements with neither get DEFAULT_VDW_RADIUS_A.
 * - Colours: the Jmol "CPK" palette (jmol.sourceforge.net/jscolors), the de-facto standard that
 *   ChimeraX's element colouring follows for O (red) and N (blue).
 */

export interface ElementInfo {
  symbol: string;
  atomicNumber: number;
  covalentRadiusA: number;
  vdwRadiusA: number;
  /** "#RRGGBB" */
  cpkColor: string;
}

/** Used for elements without a Bondi/Mantina radius (transition metals, lanthanides). */
export const DEFAULT_VDW_RADIUS_A = 2.0;
/** Only reached for symbols outside the table, which the parsers reject; a mid-row metal's radius. */
const FALLBACK_COVALENT_RADIUS_A = 1.5;

// symbol, Z, covalent radius (Å), vdW radius (Å) or null, CPK colour
type Row = readonly [string, number, number, number | null, string];

const ROWS: readonly Row[] = [
  ["H", 1, 0.31, 1.2, "#FFFFFF"],
  ["He", 2, 0.28, 1.4, "#D9FFFF"],
  ["Li", 3, 1.28, 1.82, "#CC80FF"],
  ["Be", 4, 0.96, 1.53, "#C2FF00"],
  ["B", 5, 0.84, 1.92, "#FFB5B5"],
  ["C", 6, 0.76, 1.7, "#909090"],
  ["N", 7, 0.71, 1.55, "#3050F8"],
  ["O", 8, 0.66, 1.52, "#FF0D0D"],
  ["F", 9, 0.57, 1.47, "#90E050"],
  ["Ne", 10, 0.58, 1.54, "#B3E3F5"],
  ["Na", 11, 1.66, 2.27, "#AB5CF2"],
  ["Mg", 12, 1.41, 1.73, "#8AFF00"],
  ["Al", 13, 1.21, 1.84, "#BFA6A6"],
  ["Si", 14, 1.11, 2.1, "#F0C8A0"],
  ["P", 15, 1.07, 1.8, "#FF8000"],
  ["S", 16, 1.05, 1.8, "#FFFF30"],
  ["Cl", 17, 1.02, 1.75, "#1FF01F"],
  ["Ar", 18, 1.06, 1.88, "#80D1E3"],
  ["K", 19, 2.03, 2.75, "#8F40D4"],
  ["Ca", 20, 1.76, 2.31, "#3DFF00"],
  ["Sc", 21, 1.7, null, "#E6E6E6"],
  ["Ti", 22, 1.6, null, "#BFC2C7"],
  ["V", 23, 1.53, null, "#A6A6AB"],
  ["Cr", 24, 1.39, null, "#8A99C7"],
  ["Mn", 25, 1.39, null, "#9C7AC7"],
  ["Fe", 26, 1.32, null, "#E06633"],
  ["Co", 27, 1.26, null, "#F090A0"],
  ["Ni", 28, 1.24, 1.63, "#50D050"],
  ["Cu", 29, 1.32, 1.4, "#C88033"],
  ["Zn", 30, 1.22, 1.39, "#7D80B0"],
  ["Ga", 31, 1.22, 1.87, "#C28F8F"],
  ["Ge", 32, 1.2, 2.11, "#668F8F"],
  ["As", 33, 1.19, 1.85, "#BD80E3"],
  ["Se", 34, 1.2, 1.9, "#FFA100"],
  ["Br", 35, 1.2, 1.85, "#A62929"],
  ["Kr", 36, 1.16, 2.02, "#5CB8D1"],
  ["Rb", 37, 2.2, 3.03, "#702EB0"],
  ["Sr", 38, 1.95, 2.49, "#00FF00"],
  ["Y", 39, 1.9, null, "#94FFFF"],
  ["Zr", 40, 1.75, null, "#94E0E0"],
  ["Nb", 41, 1.64, null, "#73C2C9"],
  ["Mo", 42, 1.54, null, "#54B5B5"],
  ["Tc", 43, 1.47, null, "#3B9E9E"],
  ["Ru", 44, 1.46, null, "#248F8F"],
  ["Rh", 45, 1.42, null, "#0A7D8C"],
  ["Pd", 46, 1.39, 1.63, "#006985"],
  ["Ag", 47, 1.45, 1.72, "#C0C0C0"],
  ["Cd", 48, 1.44, 1.58, "#FFD98F"],
  ["In", 49, 1.42, 1.93, "#A67573"],
  ["Sn", 50, 1.39, 2.17, "#668080"],
  ["Sb", 51, 1.39, 2.06, "#9E63B5"],
  ["Te", 52, 1.38, 2.06, "#D47A00"],
  ["I", 53, 1.39, 1.98, "#940094"],
  ["Xe", 54, 1.4, 2.16, "#429EB0"],
  ["Cs", 55, 2.44, 3.43, "#57178F"],
  ["Ba", 56, 2.15, 2.68, "#00C900"],
  ["La", 57, 2.07, null, "#70D4FF"],
  ["Ce", 58, 2.04, null, "#FFFFC7"],
  ["Pr", 59, 2.03, null, "#D9FFC7"],
  ["Nd", 60, 2.01, null, "#C7FFC7"],
  ["Sm", 62, 1.98, null, "#8FFFC7"],
  ["Eu", 63, 1.98, null, "#61FFC7"],
  ["Gd", 64, 1.96, null, "#45FFC7"],
  ["Tb", 65, 1.94, null, "#30FFC7"],
  ["Dy", 66, 1.92, null, "#1FFFC7"],
  ["Ho", 67, 1.92, null, "#00FF9C"],
  ["Er", 68, 1.89, null, "#00E675"],
  ["Yb", 70, 1.87, null, "#00BF38"],
  ["Lu", 71, 1.87, null, "#00AB24"],
  ["Hf", 72, 1.75, null, "#4DC2FF"],
  ["Ta", 73, 1.7, null, "#4DA6FF"],
  ["W", 74, 1.62, null, "#2194D6"],
  ["Re", 75, 1.51, null, "#267DAB"],
  ["Os", 76, 1.44, null, "#266696"],
  ["Ir", 77, 1.41, null, "#175487"],
  ["Pt", 78, 1.36, 1.75, "#D0D0E0"],
  ["Au", 79, 1.36, 1.66, "#FFD123"],
  ["Hg", 80, 1.32, 1.55, "#B8B8D0"],
  ["Tl", 81, 1.45, 1.96, "#A6544D"],
  ["Pb", 82, 1.46, 2.02, "#575961"],
  ["Bi", 83, 1.48, 2.07, "#9E4FB5"],
  ["U", 92, 1.96, 1.86, "#008FFF"],
];

export const ELEMENTS: ReadonlyMap<string, ElementInfo> = new Map(
  ROWS.map(([symbol, atomicNumber, covalentRadiusA, vdw, cpkColor]) => [
    symbol,
    { symbol, atomicNumber, covalentRadiusA, vdwRadiusA: vdw ?? DEFAULT_VDW_RADIUS_A, cpkColor },
  ]),
);

/** Colour for elements missing from the table (Jmol's "unknown" pink). */
export const UNKNOWN_ELEMENT_COLOR = "#FF1493";

/** "FE" / "fe" / "Fe" → "Fe"; D and T (deuterium, tritium) → "H". Null when not an element we know. */
export function normalizeElementSymbol(raw: string): string | null {
  const t = raw.trim();
  if (t.length === 0 || t.length > 2) return null;
  const symbol = t[0]!.toUpperCase() + t.slice(1).toLowerCase();
  if (symbol === "D" || symbol === "T") return "H";
  return ELEMENTS.has(symbol) ? symbol : null;
}

export function findElement(symbol: string): ElementInfo | undefined {
  return ELEMENTS.get(symbol);
}

export function cpkColorOf(symbol: string): string {
  return ELEMENTS.get(symbol)?.cpkColor ?? UNKNOWN_ELEMENT_COLOR;
}

export function covalentRadiusOf(symbol: string): number {
  return ELEMENTS.get(symbol)?.covalentRadiusA ?? FALLBACK_COVALENT_RADIUS_A;
}

export function vdwRadiusOf(symbol: string): number {
  return ELEMENTS.get(symbol)?.vdwRadiusA ?? DEFAULT_VDW_RADIUS_A;
}
