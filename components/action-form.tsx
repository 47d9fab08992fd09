"use client";

import { useActionState, type ReactNode } from "react";
import type { ActionState } from "@/lib/http/form-action";

const initial: ActionState = { error: null, notice: null, secret: null };

/**
 * A form bound to a server action that answers with an ActionState: an error
 * (shown as an alert), a notice, or a secret shown once (a new API key, an
 * invite link) with a warning that it will not be shown again.
 */
export function ActionForm({
  action,
  children,
  submit,
  className,
  danger,
}: {
  action: (previous: ActionState, form: FormData) => Promise<ActionState>;
  children?: ReactNode;
  submit: string;
  className?: string;
  danger?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, initial);
  return (
    <form action={formAction} className={className ?? "flex flex-wrap items-end gap-3"}>
      {children}
      <button
        disabled={pending}
        className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50 ${danger ? "border border-red-300 text-red-700 hover:bg-red-50" : "bg-stone-900 text-white hover:bg-stone-700"}`}
      >
        {submit}
      </button>
      {state.error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      {state.notice ? <p className="w-full text-sm text-green-700">{state.notice}</p> : null}
      {state.secret ? (
        <div className="w-full rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
          <p className="font-medium">Copy it now: it is shown this once and cannot be shown again.</p>
          <code data-testid="secret" className="mt-1 block break-all font-mono">
            {state.secret}
          </code>
        </div>
      ) : null}
    </form>
  );
}
