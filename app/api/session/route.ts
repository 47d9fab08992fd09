import { signInForm } from "@/lib/auth/forms";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "@/lib/auth/password";
import { RateLimiter } from "@/lib/auth/rate-limit";
import { clearSessionCookieHeader, cookieValue, endSession, homeOf, isSecureRequest, newSession, signedInResponse } from "@/lib/auth/sessions";
import { readForm, requireSameOrigin, route } from "@/lib/http/api";
import { SESSION_COOKIE } from "@/lib/ops/operator";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** Password guesses per email address: a bucket of 10, refilled at 10 a minute. */
const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;
const attempts = new RateLimiter(10_000);

function back(error: string): Response {
  return new Response(null, { status: 303, headers: { location: `/signin?error=${error}` } });
}

/**
 * Sign in with email and password. A wrong email and a wrong password get the
 * same answer in the same time (a dummy scrypt check runs when there is no
 * one to check). With Kinde sign-in on, operators use Kinde; members still use
 * their password here.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const form = parseInput(signInForm, await readForm(request), "form");
  const nowMs = Date.now();
  if (!attempts.take(form.email, SIGN_IN_ATTEMPTS_PER_MINUTE, nowMs).allowed) return back("throttled");
  const { engine, config } = getRuntime();
  const found = await engine.run(people.credentialsFor, { email: form.email });
  const usable = found !== null && found.passwordHash !== null && found.user.disabledAtMs === null && (found.user.role === "member" || config.operatorSignIn === "local");
  const ok = usable ? await verifyPassword(form.password, found.passwordHash!) : await burnPasswordCheck(form.password);
  if (!ok || !found) return back("1");
  const cookie = newSession(nowMs);
  const rehash = needsRehash(found.passwordHash!) ? await hashPassword(form.password) : undefined;
  const { user } = await engine.run(people.signIn, { userId: found.user.id, session: cookie.session, ...(rehash ? { newPasswordHash: rehash } : {}) });
  return signedInResponse(request, cookie, homeOf(user.role));
});

/** Sign out (from a script): the session ends on the server and the cookie is cleared. */
export const DELETE = route(async (request: Request) => {
  requireSameOrigin(request);
  await endSession(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  return new Response(null, { status: 204, headers: { "set-cookie": clearSessionCookieHeader(isSecureRequest(request)) } });
});
