import { cookies } from "next/headers";
import { decideKindeSignIn, PENDING_COOKIE, prepareKindeEnv, readPending } from "@/lib/auth/kinde";
import { newSession, signedInResponse } from "@/lib/auth/sessions";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/api";
import { discardSetupToken } from "@/lib/ops/operator";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

function refuse(reason: string): Response {
  return new Response(null, { status: 303, headers: { location: `/signin?error=kinde_${reason}` } });
}

/** Where Kinde sends an operator back: map the Kinde user to an operator here and start our own session (lib/auth/kinde.ts). */
export const GET = route(async (request: Request) => {
  const { config, engine, operator } = getRuntime();
  if (config.operatorSignIn !== "kinde") throw new AppError("not_found", "Kinde sign-in is not configured here.");
  prepareKindeEnv();
  const { getKindeServerSession } = await import("@kinde-oss/kinde-auth-nextjs/server");
  const kinde = getKindeServerSession();
  if (!(await kinde.isAuthenticated())) return refuse("signed_out");
  const kindeUser = await kinde.getUser();
  if (!kindeUser?.id) return refuse("signed_out");
  const identity = { id: kindeUser.id, email: kindeUser.email ?? null, name: [kindeUser.given_name, kindeUser.family_name].filter(Boolean).join(" ") || (kindeUser.email ?? kindeUser.id) };
  const jar = await cookies();
  const pending = readPending(operator.sessionSecret, jar.get(PENDING_COOKIE)?.value, Date.now());
  const existing = await engine.run(people.byKindeUserId, { kindeUserId: identity.id });
  const decision = decideKindeSignIn(identity, existing, pending);
  const cookie = newSession(Date.now());
  switch (decision.action) {
    case "refuse":
      return refuse(decision.reason);
    case "sign_in":
      await engine.run(people.signIn, { userId: decision.userId, session: cookie.session });
      break;
    case "setup":
      await engine.run(people.setupFirstOperator, { email: identity.email!, name: identity.name.slice(0, 100), passwordHash: null, kindeUserId: identity.id, session: cookie.session });
      discardSetupToken(operator);
      break;
    case "accept_invite":
      await engine.run(people.acceptInvite, { tokenHash: decision.inviteTokenHash, name: identity.name.slice(0, 100), passwordHash: null, kindeUserId: identity.id, session: cookie.session });
      break;
  }
  jar.delete(PENDING_COOKIE);
  return signedInResponse(request, cookie, "/app");
});
