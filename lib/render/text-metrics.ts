/**
 * Label box estimates for the label placer. The widths are the advance widths of DejaVu Sans Bold
 * 2.37 (the font png.ts hands to the rasteriser), read from the font's hmtx/cmap tables, in 1/1000 em
 * for the printable ASCII characters U+0020–U+007E. Characters outside that range count as 1 em, so
 * an estimate is never narrower than the drawn text.
 */
const DEJAVU_SANS_BOLD_ASCII_ADVANCE_MILLI_EM: readonly number[] = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696,
  696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995,
  837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716,
  678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712,
  365, 712, 838,
];

const FIRST_ASCII = 0x20;
/** DejaVu's cap height (0.729 em) plus overshoot of round capitals (O, C). */
export const LABEL_CAP_HEIGHT_EM = 0.745;
/** DejaVu's descender depth (0.236 em), reserved only for texts with characters that reach below the baseline. */
export const LABEL_DESCENT_EM = 0.24;

/** Atom and residue names are capitals, digits and primes: nothing below the baseline. */
const NO_DESCENDER = /^[A-Z0-9 '"*+#.:=<>!?%&^~-]*$/;

/** True when some character of `text` may reach below the baseline (lower case, brackets, commas). */
export function hasDescender(text: string): boolean {
  return !NO_DESCENDER.test(text);
}

/** Advance width of `text` in em (DejaVu Sans Bold). */
export function measureTextEm(text: string): number {
  let milli = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    milli += DEJAVU_SANS_BOLD_ASCII_ADVANCE_MILLI_EM[code - FIRST_ASCII] ?? 1000;
  }
  return milli / 1000;
}
