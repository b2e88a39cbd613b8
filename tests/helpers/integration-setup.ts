import { inject } from "vitest";

// Runs before each integration test file: point lib/server/db at the suite's own database.
process.env.DATABASE_URL = inject("databaseUrl");
