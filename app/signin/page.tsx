import Link from "next/link";
import { AuthCard, buttonClass, Field } from "@/components/auth-card";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const MESSAGES: Record<string, string> = {
  "1": "That email and password do not match anyone who may sign in here.",
  throttled: "Too many tries for this email; wait a minute and try again.",
  invite: "That invite link was already used or has expired; ask for a new one.",
  kinde_not_operator: "You signed in at Kinde, but you are not an operator here. Ask an operator for an invite.",
  kinde_disabled: "Your access here has been turned off.",
  kinde_signed_out: "Kinde did not sign you in; try again.",
  kinde_no_email: "Kinde did not give us your email address, which the first operator needs.",
};

/** Sign in: operators and account members with email and password; with Kinde configured, operators use Kinde. */
export default async function SignIn({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const { engine, config } = getRuntime();
  const { done } = await engine.run(people.setupStatus, {});
  const kinde = config.operatorSignIn === "kinde";
  return (
    <AuthCard
      title="Sign in to Tollbooth"
      intro={
        done ? (
          kinde ? (
            "Operators sign in with Kinde. Account members sign in with the email and password they chose from their invite."
          ) : (
            "Operators and account members sign in with their email and password."
          )
        ) : (
          <>
            No operator exists yet. <Link className="underline" href="/setup">Set up the first operator</Link> with the setup token the server printed at its first start.
          </>
        )
      }
    >
      {kinde ? (
        // eslint-disable-next-line @next/next/no-html-link-for-pages -- an OAuth redirect route, not a page: no prefetch
        <a href="/api/auth/login" className={`${buttonClass} mb-6 inline-block`}>
          Operators: sign in with Kinde
        </a>
      ) : null}
      <form method="post" action="/api/session" className="space-y-3">
        <Field id="email" label="Email" type="email" autoComplete="username" required maxLength={254} />
        <Field id="password" label="Password" type="password" autoComplete="current-password" required maxLength={200} />
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {MESSAGES[error] ?? MESSAGES["1"]}
          </p>
        ) : null}
        <button type="submit" className={buttonClass}>
          Sign in
        </button>
      </form>
    </AuthCard>
  );
}
