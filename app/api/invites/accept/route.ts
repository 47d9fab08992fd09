import { acceptInviteForm, kindeAcceptInviteForm } from "@/lib/auth/forms";
import { pendingCookieHeader } from "@/lib/auth/kinde";
import { hashPassword } from "@/lib/auth/password";
import { homeOf, isSecureRequest, newSession, signedInResponse } from "@/lib/auth/sessions";
import { sha256Hex } from "@/lib/auth/tokens";
import { readForm, requireSameOrigin, route } from "@/lib/http/api";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

function gone(): Response {
  return new Response(null, { status: 303, headers: { location: "/signin?error=invite" } });
}

/**
 * Accepting an invite link: the person chooses a name and password and is
 * signed in. The link works once (people.acceptInvite marks it used in the
 * same transaction). With Kinde sign-in on, an operator invite is accepted by
 * signing in at Kinde instead of choosing a password.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const { engine, operator, config } = getRuntime();
  const fields = await readForm(request);
  // Every field present is checked before the link is looked up; which fields are required depends on the invite.
  const present = parseInput(acceptInviteForm.partial({ name: true, password: true }), fields, "form");
  const peek = await engine.run(people.inviteByToken, { tokenHash: sha256Hex(present.token) });
  if (!peek) return gone();
  if (peek.role === "operator" && config.operatorSignIn === "kinde") {
    const form = parseInput(kindeAcceptInviteForm, fields, "form");
    return new Response(null, {
      status: 303,
      headers: { location: "/api/auth/login", "set-cookie": pendingCookieHeader(operator.sessionSecret, { kind: "invite", token: form.token }, Date.now(), isSecureRequest(request)) },
    });
  }
  const form = parseInput(acceptInviteForm, fields, "form");
  const cookie = newSession(Date.now());
  const { user } = await engine.run(people.acceptInvite, {
    tokenHash: sha256Hex(form.token),
    name: form.name,
    passwordHash: await hashPassword(form.password),
    kindeUserId: null,
    session: cookie.session,
  });
  return signedInResponse(request, cookie, homeOf(user.role));
});
