/**
 * Static renderer (pure part): scene types, settings, scene building, SVG output and label placement.
 * The PNG rasteriser is a native module and lives apart: import it from "@/lib/render/png".
 */
export * from "./settings";
export * from "./scene";
export * from "./colors";
export * from "./build-scene";
export * from "./label-placer";
export * from "./svg";
export { measureTextEm } from "./text-metrics";
