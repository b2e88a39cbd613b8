import { z } from "zod";
import { openCodebookExport } from "@/lib/server/export/open-study-export";
import { contentDisposition, toWebStream } from "@/lib/server/export/table-stream";
import { withRole } from "@/lib/server/route";

export const runtime = "nodejs";

const QuerySchema = z.object({ format: z.enum(["csv", "md"]).default("csv") });

// GET /api/export/codebook?format=csv|md – every exported column with its type, unit and description
export const GET = withRole("researcher", async ({ request }) => {
  const { format } = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const opened = openCodebookExport(format);
  return new Response(toWebStream(opened.stream), {
    headers: {
      "Content-Type": opened.contentType,
      "Content-Disposition": contentDisposition(opened.fileName),
      "X-Content-Type-Options": "nosniff",
    },
  });
});
