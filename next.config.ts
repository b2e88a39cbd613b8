import type { NextConfig } from "next";
import { API_CSP, BASE_SECURITY_HEADERS } from "./lib/http-security";

const nextConfig: NextConfig = {
  // Native/wasm database drivers stay outside the server bundle.
  // esbuild bundles the responses export's child process on first use (lib/server/export/responses-child-stream.ts).
  // tinypool forks its own entry file (found from its module's URL) for the heavy-work pool (lib/server/heavy/pool.ts).
  serverExternalPackages: ["@prisma/adapter-pg", "pg", "@resvg/resvg-js", "esbuild", "tinypool"],
  poweredByHeader: false,
  // `next dev` blocks its own scripts for other host names; the README's links use localhost, people also type 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  // No floating "N" dev-tools badge in `next dev`: fixed at the bottom left, it covered the participant's Start button
  // on long instruction screens (a researcher trying the study link, and the first-contact test, could not click it).
  // Build and runtime errors still open the dev overlay.
  devIndicators: false,
  typedRoutes: false,
  // Turbopack's persistent dev cache is not reused: after a kill -9 of `next dev` the next start restored it and every
  // request recompiled and bumped the HMR version, so each page, on connecting its HMR socket, was told "HMR hash
  // mismatch" and reloaded itself — a participant's page reloaded 16 times in 15 s (the first-contact test after its
  // restart). `npm run dev` deletes .next/dev/cache/turbopack before each start (scripts/dev-server.mts), so starts
  // compile from scratch as the first start always did. (experimental.turbopackFileSystemCacheForDev: false did the same
  // but made every dev banner print "⨯ turbopackFileSystemCacheForDev", which reads as an error.)
  // proxy.ts sets these (and the page CSP) on everything it sees; this covers the build assets and upload routes it skips.
  async headers() {
    return [
      { source: "/:path*", headers: Object.entries(BASE_SECURITY_HEADERS).map(([key, value]) => ({ key, value })) },
      {
        source: "/api/admin/:path(import|models)/:rest*",
        headers: [{ key: "Content-Security-Policy", value: API_CSP }],
      },
    ];
  },
};

export default nextConfig;
