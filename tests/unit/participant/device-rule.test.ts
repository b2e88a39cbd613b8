import { describe, expect, it } from "vitest";
import { deviceAllowed, effectiveDeviceRule } from "@/lib/participant/device-rule";
import { StudyConfigSchema } from "@/lib/study-config";

const laptop = { viewportWidth: 1366, screenWidth: 1366, pointer: "fine" as const };
const narrowWindowOnDesktop = { viewportWidth: 800, screenWidth: 1920, pointer: "fine" as const };
const phone = { viewportWidth: 390, screenWidth: 390, pointer: "coarse" as const };
const tabletLandscape = { viewportWidth: 1180, screenWidth: 1180, pointer: "coarse" as const };
const smallScreenMouse = { viewportWidth: 900, screenWidth: 900, pointer: "fine" as const };

describe("the study's device rule", () => {
  it("defaults to desktop only when a task's answers name labelled atoms (T4, T8, T9), else any device", () => {
    expect(effectiveDeviceRule(StudyConfigSchema.parse({}))).toBe("desktop");
    expect(effectiveDeviceRule(StudyConfigSchema.parse({ tasks: ["translation", "rotation", "zooming"] }))).toBe("any");
    // T7 (docking) names no atoms: not desktop-only by itself.
    expect(effectiveDeviceRule(StudyConfigSchema.parse({ tasks: ["docking", "translation_rotation"] }))).toBe("any");
    for (const task of ["residue_ligand", "interaction_location", "pocket_ligand"] as const) {
      expect(effectiveDeviceRule(StudyConfigSchema.parse({ tasks: ["translation", task] }))).toBe("desktop");
    }
    expect(effectiveDeviceRule(StudyConfigSchema.parse({ tasks: ["pocket_ligand"], deviceRule: "any" }))).toBe("any");
    expect(effectiveDeviceRule(StudyConfigSchema.parse({ tasks: ["translation"], deviceRule: "desktop" }))).toBe(
      "desktop",
    );
  });

  it("desktop: a screen at least 1024 px wide whose primary pointer is not a finger", () => {
    expect(deviceAllowed("desktop", laptop)).toBe(true);
    expect(deviceAllowed("desktop", narrowWindowOnDesktop)).toBe(true);
    expect(deviceAllowed("desktop", phone)).toBe(false);
    expect(deviceAllowed("desktop", tabletLandscape)).toBe(false);
    expect(deviceAllowed("desktop", smallScreenMouse)).toBe(false);
    expect(deviceAllowed("desktop", null)).toBe(false);
    expect(deviceAllowed("any", phone)).toBe(true);
    expect(deviceAllowed("any", null)).toBe(true);
  });

  it("rejects an unknown rule in the study config", () => {
    expect(StudyConfigSchema.safeParse({ deviceRule: "phone" }).success).toBe(false);
  });
});
