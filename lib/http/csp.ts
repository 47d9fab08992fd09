/**
 * The content security policy, made per request with a fresh nonce (proxy.ts).
 *
 * Next.js puts inline <script> tags in every page (the RSC payload and its
 * bootstrap). With a nonce in the request's Content-Security-Policy header,
 * Next adds that nonce to each of its scripts, so script-src needs neither
 * 'unsafe-inline' nor 'unsafe-eval'. 'strict-dynamic' lets those scripts load
 * the app's chunks. Development adds 'unsafe-eval' (React's dev tools and
 * fast refresh evaluate code) and websockets for hot reload; production never
 * does. Styles keep 'unsafe-inline': Next and React set style attributes, and
 * a style cannot run code.
 */
export interface CspOptions {
  nonce: string;
  development: boolean;
  /** Extra form-action targets: a sign-in form that redirects to Kinde needs Kinde's origin. */
  formActionOrigins?: string[];
}

export function contentSecurityPolicy({ nonce, development, formActionOrigins = [] }: CspOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${formActionOrigins.map((o) => ` ${o}`).join("")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
