"use client";

/** Small forms over the meter's server actions (app/app/reconciliation/actions.ts). */
import { useActionState } from "react";
import type { MeterFormState } from "@/app/app/reconciliation/actions";

type Action = (previous: MeterFormState, form: FormData) => Promise<MeterFormState>;
const initial: MeterFormState = { error: null, done: null };

/** What an action said: its error (as an alert) or what it did. */
export function Result({ state }: { state: { error: string | null; done: string | null } }) {
  return (
    <>
      {state.error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      {state.done ? <p className="w-full text-sm text-green-700">{state.done}</p> : null}
    </>
  );
}

/** A button that runs an action with hidden fields, and says what happened. */
export function ActionButton({ action, label, fields = {}, secondary = false }: { action: Action; label: string; fields?: Record<string, string>; secondary?: boolean }) {
  const [state, run, pending] = useActionState(action, initial);
  return (
    <form action={run} className="flex flex-wrap items-center gap-2">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        disabled={pending}
        className={secondary ? "rounded-md border border-stone-300 px-3 py-1.5 text-sm disabled:opacity-50" : "rounded-md bg-stone-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"}
      >
        {pending ? "Working…" : label}
      </button>
      <Result state={state} />
    </form>
  );
}

/** A one-line form: hidden fields, a text input, a button. */
export function TextActionForm({ action, fields, name, placeholder, label }: { action: Action; fields: Record<string, string>; name: string; placeholder: string; label: string }) {
  const [state, run, pending] = useActionState(action, initial);
  return (
    <form action={run} className="flex flex-wrap items-center gap-2">
      {Object.entries(fields).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <input name={name} required maxLength={500} placeholder={placeholder} className="w-56 rounded-md border border-stone-300 px-2 py-1 text-sm" />
      <button disabled={pending} className="rounded-md border border-stone-300 px-3 py-1 text-sm disabled:opacity-50">
        {label}
      </button>
      <Result state={state} />
    </form>
  );
}
