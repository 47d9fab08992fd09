/**
 * Runs before every page and route (Next.js 16's proxy, formerly middleware):
 *  - a content security policy with a fresh nonce per request (lib/http/csp.ts);
 *    Next reads the nonce from the request header and puts it on its scripts;
 *  - a first, cheap gate: /app and /account without a session cookie go to
 *    /signin. The real check (the session looked up on the server) is
 *    requireOperatorSession()/requireMemberSession() in every page and action.
 */
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "./lib/http/csp";

const SESSION_COOKIE = "tollbooth_session"; // lib/ops/operator.ts (not imported: it reads files)

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const guarded = pathname === "/app" || pathname.startsWith("/app/") || pathname === "/account" || pathname.startsWith("/account/");
  if (guarded && !request.cookies.has(SESSION_COOKIE) && request.method === "GET") {
    return NextResponse.redirect(new URL("/signin", request.url), 303);
  }
  const nonce = newNonce();
  const kindeIssuer = process.env.KINDE_ISSUER_URL;
  const csp = contentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV !== "production",
    formActionOrigins: kindeIssuer ? [new URL(kindeIssuer).origin] : [],
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
