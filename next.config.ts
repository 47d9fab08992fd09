import type { NextConfig } from "next";

// The content security policy (with frame-ancestors 'none') is set per request, with a nonce, in proxy.ts.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

const config: NextConfig = {
  // Tests run their own server with its own build folder so they never fight a developer's `npm run dev`.
  distDir: process.env.TOLLBOOTH_DIST_DIR ?? ".next",
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  // Dashboard forms are a few fields; Next's default for a server action body is 1 MB.
  experimental: { serverActions: { bodySizeLimit: "64kb" } },
  typedRoutes: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default config;
