/**
 * Molecule core: parsers, geometry (vectors, rigid transforms, view commands, camera), chemistry
 * and H-bonds. Pure TypeScript: no React, three, Prisma or Next.
 */
export * from "./types";
export * from "./parse";
export * from "./geometry/vec3";
export * from "./geometry/transform";
export * from "./geometry/commands";
export * from "./geometry/camera";
export * from "./chemistry/elements";
