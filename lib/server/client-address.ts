import "server-only";
import { clientAddressFrom } from "@/lib/http-security";
import { env } from "@/lib/server/env";
import type { RequestLike } from "@/lib/server/request-like";

/** The client address of a route handler's request (lib/http-security.ts: X-Forwarded-For only behind TRUSTED_PROXY_HOPS proxies). */
export function requestClientAddress(request: RequestLike): string {
  return clientAddressFrom(request.headers.get("x-forwarded-for"), env.TRUSTED_PROXY_HOPS);
}
