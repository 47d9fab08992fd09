/**
 * Headers every answer carries, whether Next.js or the production server's
 * direct path (server/main.ts) sends it. The content security policy (with
 * frame-ancestors 'none') is set per request, with a nonce, in proxy.ts.
 */
export const securityHeaders: readonly { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];
// The content security policy (with frame-ancestors 'none') is set per request, with a nonce, in proxy.ts.
