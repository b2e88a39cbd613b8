/** Colour rules of the MiSI-Bench rendering style (spec §2) and the shading tints derived from them. */
import { cpkColorOf } from "@/lib/molecule/chemistry/elements";
import type { SceneAtom } from "./scene";
import type { RenderColors } from "./settings";

/**
 * Colour of one atom: O red and N blue everywhere; carbons by role (pocket carbons alternate with the
 * residue index, ligand carbons grey); every other element its CPK colour. Always "#RRGGBB" upper case.
 */
export function atomColorOf(atom: Pick<SceneAtom, "element" | "role" | "residueIndex">, colors: RenderColors): string {
  switch (atom.element) {
    case "O":
      return colors.oxygen;
    case "N":
      return colors.nitrogen;
    case "C":
      if (atom.role === "pocket") return colors.pocketCarbons[atom.residueIndex % 2 === 0 ? 0 : 1];
      return atom.role === "ligand" ? colors.ligandCarbon : colors.otherCarbon;
    default:
      return cpkColorOf(atom.element).toUpperCase();
  }
}

function toRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1, 7), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function toHex(rgb: readonly [number, number, number]): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")
    .toUpperCase()}`;
}

/** Mixes `hex` toward white by `amount` (0 = unchanged, 1 = white). */
export function lightenHex(hex: string, amount: number): string {
  const [r, g, b] = toRgb(hex);
  return toHex([r + (255 - r) * amount, g + (255 - g) * amount, b + (255 - b) * amount]);
}

/** Mixes `hex` toward black by `amount` (0 = unchanged, 1 = black). */
export function darkenHex(hex: string, amount: number): string {
  const [r, g, b] = toRgb(hex);
  return toHex([r * (1 - amount), g * (1 - amount), b * (1 - amount)]);
}
