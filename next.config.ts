import fs from "node:fs";
import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/headers";

// Tests and side servers (npm run dev:kinde-fake) run with their own build
// folder so they never fight a developer's `npm run dev`. Next.js adds each
// build folder's type paths to the tsconfig it is given, so those servers get
// a tsconfig of their own (git-ignored, extending tsconfig.json) and the
// committed tsconfig.json stays as written.
const distDir = process.env.TOLLBOOTH_DIST_DIR ?? ".next";
const tsconfigPath = distDir === ".next" ? "tsconfig.json" : `${distDir}.tsconfig.json`;
if (tsconfigPath !== "tsconfig.json" && !fs.existsSync(tsconfigPath)) {
  fs.writeFileSync(tsconfigPath, JSON.stringify({ extends: "./tsconfig.json", include: ["next-env.d.ts", "**/*.ts", "**/*.tsx"], exclude: ["node_modules"] }, null, 2));
}

const config: NextConfig = {
  distDir,
  typescript: { tsconfigPath },
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  // Dashboard forms are a few fields; Next's default for a server action body is 1 MB.
  experimental: { serverActions: { bodySizeLimit: "64kb" } },
  typedRoutes: false,
  async headers() {
    return [{ source: "/:path*", headers: [...securityHeaders] }];
  },
};

export default config;
