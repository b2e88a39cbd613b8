-- A picture is found by its content hash where the image store lacks its file: the app's fallback on a participant's
-- image request (lib/server/image-serve.ts) and the backfill, once per distinct picture (lib/server/image-store.ts).
-- Without an index each lookup read the whole table: a backfill of n pictures read n² rows, and a launch on a
-- database nobody backfilled scanned it once per missing picture while participants waited.
-- CreateIndex
CREATE INDEX "ItemImage_sha256_mimeType_idx" ON "ItemImage"("sha256", "mimeType");
