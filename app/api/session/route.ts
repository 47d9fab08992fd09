import { AppError } from "@/lib/errors";
import { requireSameOrigin, route } from "@/lib/http/api";
import { checkOperatorToken, makeSessionCookie, SESSION_COOKIE } from "@/lib/ops/operator";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** Sign in: the sign-in form posts the operator token; a valid one gets a session cookie. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const form = await request.formData().catch(() => {
    throw new AppError("invalid_input", "token: expected a form field with the operator token");
  });
  const token = form.get("token");
  const secure = new URL(request.url).protocol === "https:";
  const { operator } = getRuntime();
  if (typeof token !== "string" || !checkOperatorToken(operator, token.trim())) {
    return new Response(null, { status: 303, headers: { location: "/signin?error=1" } });
  }
  const cookie = makeSessionCookie(operator, Date.now());
  return new Response(null, {
    status: 303,
    headers: { location: "/app", "set-cookie": sessionCookie(cookie.value, Math.floor((cookie.expiresAtMs - Date.now()) / 1000), secure) },
  });
});

/** Sign out: the cookie is cleared. */
export const DELETE = route(async (request: Request) => {
  requireSameOrigin(request);
  return new Response(null, { status: 204, headers: { "set-cookie": sessionCookie("", 0, false) } });
});
