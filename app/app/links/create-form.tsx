"use client";

import Link from "next/link";
import { useActionState } from "react";
import { createLinkAction, type LinkFormState } from "./actions";

const initial: LinkFormState = { error: null, created: null };
const field = "mt-1 rounded-md border border-stone-300 px-3 py-1.5 text-sm";

export function CreateLinkForm({ accounts }: { accounts: { id: string; name: string }[] }) {
  const [state, action, pending] = useActionState(createLinkAction, initial);
  return (
    <form action={action} className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4" aria-label="Create a short link">
      <label className="flex flex-col text-sm">
        Account
        <select name="accountId" required className={field}>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-1 flex-col text-sm">
        Destination
        <input name="destination" type="url" required maxLength={2048} placeholder="https://example.com/launch" className={`${field} min-w-72`} />
      </label>
      <label className="flex flex-col text-sm">
        Code (optional)
        <input name="code" maxLength={32} pattern="[A-Za-z0-9][A-Za-z0-9_\-]{2,31}" placeholder="generated" className={`${field} w-40 font-mono`} />
      </label>
      <button disabled={pending || accounts.length === 0} className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
        Create link
      </button>
      {accounts.length === 0 ? <p className="w-full text-sm text-stone-500">Create an account first.</p> : null}
      {state.error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      {state.created ? (
        <p className="w-full text-sm text-green-700">
          Created <Link className="font-mono underline" href={`/app/links/${state.created.code}`}>{state.created.shortUrl}</Link>
        </p>
      ) : null}
    </form>
  );
}
