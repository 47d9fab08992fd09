"use client";

/**
 * The stand-in's fault switches: what is on now, and a form to turn each on
 * or off. Reusable: the Provider page and the Reconciliation page pass the
 * switches they read and the server actions from app/app/provider/actions.ts:
 *
 *   <FaultSwitches faults={faults} setFault={setFaultAction} clearFault={clearFaultAction} />
 */
import { useActionState } from "react";

export interface FaultView {
  kind: "fail_writes" | "rate_limit" | "drift" | "hang" | "deny_scope";
  remaining: number | null;
  amount: number | null;
  scope: string | null;
  setAtMs: number;
}

export interface FaultFormState {
  error: string | null;
  done: string | null;
}

const SCOPES = ["read:billing_entitlements", "read:billing_agreements", "create:meter_usage", "read:meter_usage"];

const SWITCHES: { kind: FaultView["kind"]; title: string; what: string }[] = [
  { kind: "fail_writes", title: "Fail the next writes", what: "Meter writes fail (the reporter must mark the cycle again)." },
  { kind: "rate_limit", title: "Answer 429", what: "Every call answers 429 Too Many Requests with a RateLimit-Reset." },
  { kind: "drift", title: "Move the meter", what: "The next meter write lands off by N (the reconciler should find it)." },
  { kind: "hang", title: "Stop answering", what: "Calls get no answer and time out: reads are unreadable, writes retry later." },
  { kind: "deny_scope", title: "Remove a scope", what: "Calls needing the scope are refused (403), naming it." },
];

export function describeFault(f: FaultView): string {
  const left = f.remaining === null ? "until turned off" : `${f.remaining} left`;
  switch (f.kind) {
    case "fail_writes":
      return `failing the next writes: ${left}`;
    case "rate_limit":
      return `answering 429 (reset ${f.amount} s): ${left}`;
    case "drift":
      return `moving the next write by ${f.amount! > 0 ? "+" : ""}${f.amount}: ${left}`;
    case "hang":
      return `not answering: ${left}`;
    case "deny_scope":
      return `refusing calls that need ${f.scope}`;
  }
}

const initial: FaultFormState = { error: null, done: null };
const input = "w-24 rounded-md border border-stone-300 px-2 py-1 text-sm";

export function FaultSwitches({
  faults,
  setFault,
  clearFault,
}: {
  faults: FaultView[];
  setFault: (previous: FaultFormState, form: FormData) => Promise<FaultFormState>;
  clearFault: (form: FormData) => Promise<void>;
}) {
  const [state, action, pending] = useActionState(setFault, initial);
  return (
    <section aria-label="Fault switches" className="rounded-lg border border-stone-200 bg-white p-4">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Stand-in fault switches</h2>
        {faults.length > 0 ? (
          <form action={clearFault}>
            <input type="hidden" name="kind" value="all" />
            <button className="text-sm text-stone-600 underline">Turn all off</button>
          </form>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-stone-600" data-testid="faults-on">
        {faults.length === 0 ? "All switches are off: the stand-in answers like a healthy Kinde." : `On now: ${faults.map(describeFault).join("; ")}.`}
      </p>
      <ul className="mt-3 divide-y divide-stone-100">
        {SWITCHES.map((s) => {
          const on = faults.find((f) => f.kind === s.kind);
          return (
            <li key={s.kind} className="flex flex-wrap items-center gap-3 py-2" data-fault={s.kind}>
              <div className="min-w-64 flex-1">
                <p className="text-sm font-medium">
                  {s.title}{" "}
                  {on ? <span className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">ON — {describeFault(on)}</span> : null}
                </p>
                <p className="text-xs text-stone-500">{s.what}</p>
              </div>
              <form action={action} className="flex items-center gap-2">
                <input type="hidden" name="kind" value={s.kind} />
                {s.kind === "fail_writes" ? <input name="count" type="number" min={1} defaultValue={3} aria-label="writes" className={input} /> : null}
                {s.kind === "rate_limit" ? (
                  <>
                    <input name="count" type="number" min={1} defaultValue={5} aria-label="calls" className={input} />
                    <input name="resetSeconds" type="number" min={0} defaultValue={30} aria-label="reset seconds" className={input} />
                  </>
                ) : null}
                {s.kind === "drift" ? <input name="amount" type="number" defaultValue={426} aria-label="units" className={input} /> : null}
                {s.kind === "hang" ? <input name="count" type="number" min={1} placeholder="all" aria-label="calls (blank: until off)" className={input} /> : null}
                {s.kind === "deny_scope" ? (
                  <select name="scope" aria-label="scope" className="rounded-md border border-stone-300 px-2 py-1 text-sm">
                    {SCOPES.map((scope) => (
                      <option key={scope}>{scope}</option>
                    ))}
                  </select>
                ) : null}
                <button disabled={pending} className="rounded-md bg-stone-900 px-3 py-1 text-sm text-white disabled:opacity-50">
                  Turn on
                </button>
              </form>
              {on ? (
                <form action={clearFault}>
                  <input type="hidden" name="kind" value={s.kind} />
                  <button className="rounded-md border border-stone-300 px-3 py-1 text-sm">Turn off</button>
                </form>
              ) : null}
            </li>
          );
        })}
      </ul>
      {state.error ? <p role="alert" className="mt-2 text-sm text-red-700">{state.error}</p> : null}
      {state.done ? <p className="mt-2 text-sm text-green-700">{state.done}</p> : null}
    </section>
  );
}
