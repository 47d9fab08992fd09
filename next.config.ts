import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/headers";

const config: NextConfig = {
  // Tests run their own server with its own build folder so they never fight a developer's `npm run dev`.
  distDir: process.env.TOLLBOOTH_DIST_DIR ?? ".next",
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [{ source: "/:path*", headers: [...securityHeaders] }];
  },
};

export default config;
