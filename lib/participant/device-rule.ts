import type { StudyConfig } from "@/lib/study-config";

/**
 * Tasks whose answers name atoms that are read from the images' labels (T4, T8, T9): on a phone-sized screen those
 * labels are a few CSS px, so a study with any of them takes desktop participants only unless the researcher says
 * otherwise (`deviceRule: "any"`).
 */
export const ATOM_LABEL_TASK_IDS: ReadonlySet<string> = new Set([
  "residue_ligand",
  "interaction_location",
  "pocket_ligand",
]);

/** Narrowest screen (CSS px) taken as a desktop or laptop: the two-column question layout starts here. */
export const DESKTOP_MIN_WIDTH_PX = 1024;

/** What a study requires of the participant's device, after resolving "auto" from its tasks. */
export type EffectiveDeviceRule = "any" | "desktop";

export function effectiveDeviceRule(config: Pick<StudyConfig, "deviceRule" | "tasks">): EffectiveDeviceRule {
  if (config.deviceRule === "auto") return config.tasks.some((t) => ATOM_LABEL_TASK_IDS.has(t)) ? "desktop" : "any";
  return config.deviceRule;
}

/** The device facts the rule reads (a subset of what is recorded at consent). */
export interface DeviceFacts {
  viewportWidth: number;
  screenWidth?: number;
  pointer: "fine" | "coarse" | "none";
}

/**
 * Desktop: a screen at least DESKTOP_MIN_WIDTH_PX wide (the window may be narrower and widened later) whose primary
 * pointer is not a finger. Phones and tablets (coarse pointer) are refused; a laptop with a touch screen reports a fine
 * primary pointer and is accepted.
 */
export function deviceAllowed(rule: EffectiveDeviceRule, device: DeviceFacts | null): boolean {
  if (rule === "any") return true;
  if (!device) return false;
  const width = Math.max(device.viewportWidth, device.screenWidth ?? 0);
  return device.pointer !== "coarse" && width >= DESKTOP_MIN_WIDTH_PX;
}

/** Shown to a participant whose device the study does not take; says how to leave on Prolific. */
export const DEVICE_SCREEN_OUT_MESSAGE =
  "This study needs a desktop or laptop computer with a mouse or trackpad and a screen at least 1024 pixels wide: the pictures show small atom labels that cannot be read on a phone or tablet. Only this device check has been recorded. Please return the study on Prolific (choose “Return submission”; no completion code is needed), and take it again from a computer if you like.";
