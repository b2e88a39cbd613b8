// Seeds what a fresh installation needs, once: the first admin account and the demo study.
// Safe to run on every start (predev): it only creates what is missing.
import fs from "node:fs";
import { db, dbPool, disconnectDb } from "@/lib/server/db";
import { backfillImageStore, imageStoreDir } from "@/lib/server/image-store";
import { ensureDevSecret } from "@/lib/server/secrets";
import { ensureAdmin } from "@/lib/server/seed";
import { ensureDemoStudy } from "@/lib/server/demo";
import { seedFailureMessage } from "@/lib/server/seed-errors";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const baseUrl = process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;

try {
  if (!process.env.NEXTAUTH_SECRET && process.env.NODE_ENV !== "production") ensureDevSecret();
  const admin = await ensureAdmin({
    email: process.env.ADMIN_EMAIL ?? "admin@localhost",
    password: process.env.ADMIN_PASSWORD || undefined,
  });
  console.log("\nMiSI human baseline");
  if (admin.created && admin.generatedPassword) {
    console.log(`  Admin sign-in:    ${baseUrl}/admin  email ${admin.email}  password ${admin.generatedPassword}`);
    console.log("                    (generated now and shown only once; set ADMIN_PASSWORD to choose your own)");
  } else if (admin.created) {
    console.log(`  Admin sign-in:    ${baseUrl}/admin  email ${admin.email}  password from ADMIN_PASSWORD`);
  } else {
    console.log(`  Admin sign-in:    ${baseUrl}/admin  email ${admin.email} (existing account)`);
  }
  if (process.env.SEED_DEMO !== "0") {
    const adminUser = await db.user.findUniqueOrThrow({ where: { email: admin.email }, select: { id: true } });
    const demo = await ensureDemoStudy({ actorId: adminUser.id, log: (line) => console.log(`  ${line}`) });
    console.log(
      `  Participant link: ${baseUrl}/s/${demo.slug}${demo.created ? `  (demo study created with ${demo.items} items)` : ""}`,
    );
    console.log(
      `  Prolific-style:   ${baseUrl}/s/${demo.slug}?PROLIFIC_PID=test-participant&STUDY_ID=demo&SESSION_ID=1`,
    );
  }
  // A database from before the image store (or restored from a backup) gets its files here; nothing to do otherwise.
  const images = await backfillImageStore(dbPool());
  if (images.written > 0) console.log(`  Image store:      ${images.written} pictures written to ${imageStoreDir()}`);
  console.log("");
} catch (err) {
  console.error(seedFailureMessage(err));
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
