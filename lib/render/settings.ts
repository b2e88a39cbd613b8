/**
 * Render settings for the static renderer (spec §2 "Rendering style"; spec §6: the paper gives no
 * image size, radii or fonts, so these are this project's decisions and every generated item stores
 * the settings object it was rendered with, `version` included).
 */
import { z } from "zod";

/**
 * Bump when a default or the drawing itself changes in a way that alters pictures.
 * 4: pixel quantities rounded to 0.1 px at 1024 px (svg.ts `svgNumberDecimals`), trailing zeros dropped.
 */
export const RENDER_SETTINGS_VERSION = 4;

/** Reference image size for font sizes: label sizes are "px at 1024" and scale with the image. */
export const LABEL_REFERENCE_SIZE_PX = 1024;

const HexColorSchema = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, "expected a colour as #RRGGBB")
  .transform((s) => s.toUpperCase());

export const RenderColorsSchema = z.object({
  /** Pocket residue carbons alternate between these from one residue to the next (spec §2). */
  pocketCarbons: z.tuple([HexColorSchema, HexColorSchema]).default(["#BF99F2", "#F2B366"]),
  /** Ligand carbons are grey (spec §2): CSS "darkgray", lighter than CPK #909090 so the ligand stands out on black. */
  ligandCarbon: HexColorSchema.default("#A9A9A9"),
  /** Carbons of atoms that are neither pocket nor ligand (full-complex views); ChimeraX's tan. */
  otherCarbon: HexColorSchema.default("#D2B48C"),
  oxygen: HexColorSchema.default("#FF0D0D"),
  nitrogen: HexColorSchema.default("#3050F8"),
});

export const RenderSettingsSchema = z.object({
  version: z.literal(RENDER_SETTINGS_VERSION).default(RENDER_SETTINGS_VERSION),
  widthPx: z.number().int().min(16).max(8192).default(1024),
  heightPx: z.number().int().min(16).max(8192).default(1024),
  backgroundColor: HexColorSchema.default("#000000"),
  /** Ball radius as a fraction of the van der Waals radius (ChimeraX's default ball scale is 0.25). */
  ballRadiusScale: z.number().positive().max(1).default(0.25),
  /** Stick (bond) radius in Å (ChimeraX's default bond radius is 0.2 Å). */
  stickRadiusA: z.number().positive().max(1).default(0.2),
  showLigandLabels: z.boolean().default(true),
  showResidueLabels: z.boolean().default(true),
  /**
   * Atom-name label size in px at a 1024-px image (scaled with the smaller image side). The question page
   * shows the main image at least 600 CSS px wide, so 22 px here reads as ≥ 12.9 CSS px there.
   */
  labelFontSizePx: z.number().positive().max(200).default(22),
  /** Residue label size in px at a 1024-px image (≥ 14 CSS px at 600 CSS px). */
  residueLabelFontSizePx: z.number().positive().max(200).default(24),
  /**
   * Residue-atom label size (T8, T9: "OD1" of a contact-shell residue) in px at a 1024-px image. Drawn in the
   * residue's carbon colour, so it reads as part of that residue and apart from the white ligand atom names.
   */
  residueAtomLabelFontSizePx: z.number().positive().max(200).default(22),
  /**
   * Contact shell, Å: a pocket residue with a heavy atom this close to a ligand heavy atom gets its label
   * placed before other residues', in views that have labelled it least so far. A function of the structure
   * alone (every H-bond partner lies inside it), so which residues are labelled says nothing about the key.
   */
  residueLabelContactA: z.number().positive().max(20).default(4.5),
  /** Each contact-shell residue should be labelled in at least this many views of an item. */
  residueLabelMinViews: z.number().int().min(0).max(12).default(2),
  labelColor: HexColorSchema.default("#FFFFFF"),
  residueLabelColor: HexColorSchema.default("#FFFFFF"),
  /** Outline drawn under the text so labels stay readable over bright balls. */
  labelHaloColor: HexColorSchema.default("#000000"),
  /** Halo stroke width as a fraction of the font size. */
  labelHaloFraction: z.number().min(0).max(0.5).default(0.22),
  /** Bold DejaVu Sans: the PNG rasteriser is given exactly this font (see png.ts); widths in text-metrics.ts. */
  labelFontFamily: z.string().min(1).max(100).default("DejaVu Sans"),
  colors: RenderColorsSchema.prefault({}),
});

export type RenderSettings = z.infer<typeof RenderSettingsSchema>;
export type RenderSettingsInput = z.input<typeof RenderSettingsSchema>;
export type RenderColors = z.infer<typeof RenderColorsSchema>;

export const DEFAULT_RENDER_SETTINGS: RenderSettings = RenderSettingsSchema.parse({});

export type ParseRenderSettingsResult = { ok: true; settings: RenderSettings } | { ok: false; reason: string };

/** Validates stored or user-supplied settings; missing fields take the defaults. */
export function parseRenderSettings(raw: unknown): ParseRenderSettingsResult {
  const parsed = RenderSettingsSchema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, settings: parsed.data };
  const reason = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
  return { ok: false, reason: `invalid render settings: ${reason}` };
}
