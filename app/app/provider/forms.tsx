"use client";

import { useActionState } from "react";
import { sendWebhookAction, setLimitAction, type LimitFormState, type WebhookFormState } from "./actions";

const field = "mt-1 rounded-md border border-stone-300 px-2 py-1.5 text-sm";
type AccountOption = { id: string; name: string };

function AccountSelect({ accounts }: { accounts: AccountOption[] }) {
  return (
    <label className="flex flex-col text-sm">
      Account
      <select name="accountId" required className={field}>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.id})
          </option>
        ))}
      </select>
    </label>
  );
}

export function LimitForm({ accounts, features }: { accounts: AccountOption[]; features: string[] }) {
  const [state, action, pending] = useActionState<LimitFormState, FormData>(setLimitAction, { error: null, done: null });
  return (
    <form action={action} className="flex flex-wrap items-end gap-3" aria-label="Set a limit">
      <AccountSelect accounts={accounts} />
      <label className="flex flex-col text-sm">
        Feature
        <input name="featureCode" list="feature-codes" required defaultValue={features[0]} className={`${field} w-32 font-mono`} />
        <datalist id="feature-codes">
          {features.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      </label>
      <label className="flex flex-col text-sm">
        Limit (blank: unlimited; &ldquo;plan&rdquo;: the plan&rsquo;s)
        <input name="limitMax" placeholder="e.g. 250" className={`${field} w-48`} />
      </label>
      <button disabled={pending || accounts.length === 0} className="rounded-md bg-stone-900 px-4 py-2 text-sm text-white disabled:opacity-50">
        Set limit
      </button>
      {state.error ? <p role="alert" className="w-full text-sm text-red-700">{state.error}</p> : null}
      {state.done ? <p className="w-full text-sm text-green-700">{state.done}</p> : null}
    </form>
  );
}

export function WebhookForm({ accounts, eventTypes, plans }: { accounts: AccountOption[]; eventTypes: readonly string[]; plans: { code: string; name: string }[] }) {
  const [state, action, pending] = useActionState<WebhookFormState, FormData>(sendWebhookAction, { error: null, done: null, deliveries: [] });
  return (
    <form action={action} className="flex flex-wrap items-end gap-3" aria-label="Send a webhook">
      <AccountSelect accounts={accounts} />
      <label className="flex flex-col text-sm">
        Event
        <select name="type" className={field}>
          {eventTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-sm">
        Plan (plan events)
        <select name="planCode" className={field} defaultValue="pro">
          {plans.map((p) => (
            <option key={p.code} value={p.code}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-sm">
        Copies
        <input name="copies" type="number" min={1} max={10} defaultValue={1} className={`${field} w-20`} />
      </label>
      <label className="flex flex-col text-sm">
        Happened minutes ago (replay)
        <input name="minutesAgo" type="number" min={0} placeholder="0" className={`${field} w-24`} />
      </label>
      <label className="flex flex-col text-sm">
        Intake URL (default: this server)
        <input name="intakeUrl" type="url" placeholder="/api/webhooks/kinde" className={`${field} w-72`} />
      </label>
      <button disabled={pending || accounts.length === 0} className="rounded-md bg-stone-900 px-4 py-2 text-sm text-white disabled:opacity-50">
        Sign and send
      </button>
      {state.error ? <p role="alert" className="w-full text-sm text-red-700">{state.error}</p> : null}
      {state.done ? (
        <div className="w-full text-sm">
          <p className="text-green-700">{state.done}</p>
          <ol className="mt-1 list-decimal pl-5 text-stone-700" data-testid="deliveries">
            {state.deliveries.map((d, i) => (
              <li key={i}>
                {d.status === null ? `no answer: ${d.error}` : `HTTP ${d.status}`} {d.body ? <span className="font-mono text-xs text-stone-500">{d.body.slice(0, 120)}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </form>
  );
}
