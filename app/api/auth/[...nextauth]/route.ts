import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/server/auth";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, context: RouteContext) {
  return NextAuth(req as never, { params: await context.params } as never, getAuthOptions());
}

export { handler as GET, handler as POST };
