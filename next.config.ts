import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native/wasm database drivers stay outside the server bundle.
  serverExternalPackages: ["@prisma/adapter-pg", "pg", "@resvg/resvg-js"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
