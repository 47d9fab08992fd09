import { kindeSetupForm, setupForm } from "@/lib/auth/forms";
import { pendingCookieHeader } from "@/lib/auth/kinde";
import { hashPassword } from "@/lib/auth/password";
import { isSecureRequest, newSession, signedInResponse } from "@/lib/auth/sessions";
import { readForm, requireSameOrigin, route } from "@/lib/http/api";
import { checkSetupToken, discardSetupToken } from "@/lib/ops/operator";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

function back(error: string): Response {
  return new Response(null, { status: 303, headers: { location: `/setup?error=${error}` } });
}

/**
 * The first-run page's form: the setup token the server printed makes the
 * first operator, once. people.setupFirstOperator writes the setup row in the
 * same transaction, so a second use (or two racing ones) is refused.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const { engine, operator, config } = getRuntime();
  const fields = await readForm(request);
  if (config.operatorSignIn === "kinde") {
    const form = parseInput(kindeSetupForm, fields, "form");
    if ((await engine.run(people.setupStatus, {})).done) return back("done");
    if (!checkSetupToken(operator, form.setupToken)) return back("token");
    return new Response(null, {
      status: 303,
      headers: { location: "/api/auth/login", "set-cookie": pendingCookieHeader(operator.sessionSecret, { kind: "setup" }, Date.now(), isSecureRequest(request)) },
    });
  }
  const form = parseInput(setupForm, fields, "form");
  if ((await engine.run(people.setupStatus, {})).done) return back("done");
  if (!checkSetupToken(operator, form.setupToken)) return back("token");
  const cookie = newSession(Date.now());
  await engine.run(people.setupFirstOperator, {
    email: form.email,
    name: form.name,
    passwordHash: await hashPassword(form.password),
    kindeUserId: null,
    session: cookie.session,
  });
  discardSetupToken(operator);
  return signedInResponse(request, cookie, "/app");
});
