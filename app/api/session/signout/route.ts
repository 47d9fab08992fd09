import { clearSessionCookieHeader, cookieValue, endSession, isSecureRequest } from "@/lib/auth/sessions";
import { requireSameOrigin, route } from "@/lib/http/api";
import { SESSION_COOKIE } from "@/lib/ops/operator";

export const dynamic = "force-dynamic";

/** Sign out from the dashboard's form: the session ends on the server, so a copied cookie stops working too. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  await endSession(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  return new Response(null, { status: 303, headers: { location: "/signin", "set-cookie": clearSessionCookieHeader(isSecureRequest(request)) } });
});
