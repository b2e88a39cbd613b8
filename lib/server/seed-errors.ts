/**
 * What `npm run db:seed` says when it fails. Before the first migration the tables are missing, and Prisma's own
 * "table does not exist" does not say what to do: the message names the command to run.
 */
export function seedFailureMessage(err: unknown): string {
  const code = typeof err === "object" && err !== null && "code" in err ? (err as { code: unknown }).code : undefined;
  const text = err instanceof Error ? err.message : String(err);
  // P2021: Prisma's "table does not exist"; 42P01: PostgreSQL's undefined_table.
  if (code === "P2021" || code === "42P01" || /table .* does not exist|relation .* does not exist/i.test(text)) {
    return "Seeding failed: the database has no tables yet. Run `npm run db:migrate` first, then `npm run db:seed` again.";
  }
  return `Seeding failed: ${text}`;
}
