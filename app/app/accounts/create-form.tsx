"use client";

import { useActionState } from "react";
import { createAccount, type FormState } from "./actions";

const initial: FormState = { error: null, createdId: null };

export function CreateAccountForm() {
  const [state, action, pending] = useActionState(createAccount, initial);
  return (
    <form action={action} className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
      <label className="flex flex-col text-sm">
        Name
        <input name="name" required maxLength={100} className="mt-1 rounded-md border border-stone-300 px-3 py-1.5" />
      </label>
      <label className="flex flex-col text-sm">
        Kinde customer id (optional)
        <input name="kindeCustomerId" maxLength={100} placeholder="customer_…" className="mt-1 rounded-md border border-stone-300 px-3 py-1.5 font-mono" />
      </label>
      <button disabled={pending} className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
        Create account
      </button>
      {state.error ? <p role="alert" className="w-full text-sm text-red-700">{state.error}</p> : null}
      {state.createdId ? <p className="w-full text-sm text-green-700">Created {state.createdId}.</p> : null}
    </form>
  );
}
