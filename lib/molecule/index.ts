/**
 * Molecule core: parsers, geometry (vectors, rigid transforms, view commands, camera), chemistry,
 * complex preparation and H-bonds. Pure TypeScript: no React, three, Prisma or Next.
 */
export * from "./types";
export * from "./parse";
export * from "./geometry/vec3";
export * from "./geometry/transform";
export * from "./geometry/commands";
export * from "./geometry/camera";
export * from "./geometry/spatial-grid";
export * from "./chemistry/elements";
export * from "./chemistry/residues";
export * from "./chemistry/bonds";
export * from "./chemistry/idatm";
export * from "./prepare";
export * from "./hbonds";
