import Link from "next/link";
import { AuthCard, buttonClass, Field } from "@/components/auth-card";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password";
import { sha256Hex } from "@/lib/auth/tokens";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** An invite link: choose a name and password (or, for operators with Kinde, sign in with Kinde). Works once. */
export default async function Invite({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { engine, config } = getRuntime();
  const invite = /^[A-Za-z0-9_-]{20,200}$/.test(token) ? await engine.run(people.inviteByToken, { tokenHash: sha256Hex(token) }) : null;
  if (!invite) {
    return (
      <AuthCard title="This invite link does not work">
        <p>
          It was already used or has expired. Ask for a new one, or <Link className="underline" href="/signin">sign in</Link>.
        </p>
      </AuthCard>
    );
  }
  const kinde = invite.role === "operator" && config.operatorSignIn === "kinde";
  return (
    <AuthCard title={invite.role === "operator" ? "Join Tollbooth as an operator" : "See your account on Tollbooth"} intro={<>Invited as {invite.email} by {invite.invitedBy}.</>}>
      <form method="post" action="/api/invites/accept" className="space-y-3">
        <input type="hidden" name="token" value={token} />
        {kinde ? null : (
          <>
            <Field id="name" label="Your name" required maxLength={100} autoComplete="name" />
            <Field id="password" label={`Password (at least ${PASSWORD_MIN_LENGTH} characters)`} type="password" required minLength={PASSWORD_MIN_LENGTH} maxLength={200} autoComplete="new-password" />
          </>
        )}
        <button type="submit" className={buttonClass}>
          {kinde ? "Continue with Kinde" : "Join"}
        </button>
      </form>
    </AuthCard>
  );
}
