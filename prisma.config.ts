import { defineConfig } from "prisma/config";

// Migrations are applied by scripts/db.mts (wasm schema engine); the CLI is only used for `prisma generate`.
export default defineConfig({ schema: "prisma/schema.prisma", migrations: { path: "prisma/migrations" } });
