import Link from "next/link";
import { AuthCard, buttonClass, Field } from "@/components/auth-card";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const MESSAGES: Record<string, string> = {
  token: "That is not the setup token (or it was already used).",
  done: "The first operator already exists; sign in instead.",
};

/** First run: the one-time setup token the server printed makes the first operator. Closed for good once used. */
export default async function Setup({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const { engine, config } = getRuntime();
  if ((await engine.run(people.setupStatus, {})).done) {
    return (
      <AuthCard title="Setup is done">
        <p>
          The first operator already exists. <Link className="underline" href="/signin">Sign in</Link>, or ask an operator for an invite.
        </p>
      </AuthCard>
    );
  }
  const kinde = config.operatorSignIn === "kinde";
  return (
    <AuthCard
      title="Set up the first operator"
      intro={
        <>
          Paste the setup token the server printed when it first started (it is also in <code className="font-mono">setup-token</code> in the data folder). It works once.
          {kinde ? " Then sign in with Kinde: the Kinde user you sign in as becomes the first operator." : null}
        </>
      }
    >
      <form method="post" action="/api/setup" className="space-y-3">
        <Field id="setupToken" label="Setup token" type="password" autoComplete="off" required maxLength={200} className="w-full rounded-md border border-stone-300 px-3 py-2 font-mono" />
        {kinde ? null : (
          <>
            <Field id="name" label="Your name" required maxLength={100} autoComplete="name" />
            <Field id="email" label="Email" type="email" required maxLength={254} autoComplete="username" />
            <Field id="password" label={`Password (at least ${PASSWORD_MIN_LENGTH} characters)`} type="password" required minLength={PASSWORD_MIN_LENGTH} maxLength={200} autoComplete="new-password" />
          </>
        )}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {MESSAGES[error] ?? MESSAGES.token}
          </p>
        ) : null}
        <button type="submit" className={buttonClass}>
          {kinde ? "Continue with Kinde" : "Create operator"}
        </button>
      </form>
    </AuthCard>
  );
}
