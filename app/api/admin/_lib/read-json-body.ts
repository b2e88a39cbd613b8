import "server-only";
import { AppError } from "@/lib/server/errors";

/**
 * The JSON body of a staff API request. Requiring `application/json` also keeps cross-site HTML forms out: a
 * browser can only send that content type cross-origin after a CORS preflight, which these routes never grant.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) throw new AppError("BAD_REQUEST", "Send the request body as application/json.");
  try {
    return await request.json();
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}
