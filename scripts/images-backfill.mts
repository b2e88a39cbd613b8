// Writes every item image the database holds into the image store (lib/server/image-store.ts) that is not there yet:
// for a database imported before the store existed. Run once after upgrading; running it again writes nothing new.
// Images imported since are written at import, and a link whose file is missing is filled by the app on first request.
import fs from "node:fs";
import { dbPool, disconnectDb } from "@/lib/server/db";
import { backfillImageStore, imageStoreDir } from "@/lib/server/image-store";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const started = Date.now();
try {
  const r = await backfillImageStore(dbPool());
  console.log(
    `image store ${imageStoreDir()}: ${r.distinct} distinct pictures, ${r.present} present, ${r.written} written, ${r.corrected} rows' hashes corrected (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
} finally {
  await disconnectDb();
}
