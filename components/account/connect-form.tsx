"use client";

import { useActionState } from "react";
import { Result } from "@/components/meter/forms";
import { connectAccountAction, type ConnectFormState } from "./usage-actions";

const field = "mt-1 rounded-md border border-stone-300 px-2 py-1.5 text-sm";

export function ConnectForm({
  accountId,
  kindeCustomerId,
  agreementId,
  anchorIso,
  hasUsage,
}: {
  accountId: string;
  kindeCustomerId: string;
  agreementId: string;
  anchorIso: string;
  hasUsage: boolean;
}) {
  const [state, action, pending] = useActionState<ConnectFormState, FormData>(connectAccountAction, { error: null, done: null });
  return (
    <form action={action} className="flex flex-wrap items-end gap-3" aria-label="Connect the account">
      <input type="hidden" name="accountId" value={accountId} />
      <label className="flex flex-col text-sm">
        Kinde customer id
        <input name="kindeCustomerId" defaultValue={kindeCustomerId} placeholder="customer_…" className={`${field} w-56 font-mono`} />
      </label>
      <label className="flex flex-col text-sm">
        Agreement id
        <input name="agreementId" defaultValue={agreementId} placeholder="agreement_…" className={`${field} w-56 font-mono`} />
      </label>
      <label className="flex flex-col text-sm">
        Agreement start (UTC, day 1–28)
        <input name="agreementStart" type="datetime-local" defaultValue={anchorIso} disabled={hasUsage} className={field} />
      </label>
      <button disabled={pending} className="rounded-md bg-stone-900 px-4 py-2 text-sm text-white disabled:opacity-50">
        Save
      </button>
      {hasUsage ? <p className="w-full text-xs text-stone-500">The agreement start is fixed: the account has usage, and moving it would move recorded usage into other cycles.</p> : null}
      <Result state={state} />
    </form>
  );
}
