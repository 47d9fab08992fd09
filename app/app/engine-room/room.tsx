"use client";

import { useActionState, useState } from "react";
import type { RunReport, Step } from "@/lib/inbox/engine-room/run";
import { ARTICLE_DELIVERIES_TEXT, ARTICLE_EVENTS_TEXT } from "@/lib/inbox/engine-room/sequence";
import { runEngineRoomAction, type RoomState } from "./actions";
import { Table } from "@/components/ui/table";

const initial: RoomState = { error: null, naive: null, pipeline: null, checkpoints: null };

function label(step: Step): string {
  return `${step.event}${step.copy > 1 ? ` (copy ${step.copy})` : ""}${step.stopWorker ? " — worker stops" : ""}`;
}

function RunTable({ title, report, upTo }: { title: string; report: RunReport; upTo: number }) {
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-4" data-testid={`run-${report.target}`}>
      <h3 className="font-semibold">{title}</h3>
      <p className="mb-2 text-xs text-stone-500">
        test account <a className="font-mono underline" href={`/app/accounts/${report.accountId}`}>{report.accountId}</a>
        {report.target === "pipeline" ? ` · ${report.copies} copies, ${report.stored} stored, ${report.dropped} dropped${report.refused ? `, ${report.refused} refused` : ""}` : ""}
      </p>
      <Table columns={["#", "Delivery", "Answer", "What happened", "Plan", { label: "Balance", right: true }]}>
          {report.steps.slice(0, upTo).map((s) => (
            <tr key={s.n} className="border-b border-stone-100 align-top" data-step={s.n}>
              <td className="py-1 pr-2">{s.n}</td>
              <td className="pr-2 font-mono text-xs">{label(s)}</td>
              <td className="pr-2">{s.answer}</td>
              <td className="pr-2">
                {s.intake}
                {s.worker.map((w) => (
                  <div key={w} className="text-xs text-stone-600">
                    worker — {w}
                  </div>
                ))}
              </td>
              <td className="pr-2" data-cell="plan">{s.plan}</td>
              <td className="text-right font-mono" data-cell="balance">{s.balance.toLocaleString("en-US")}</td>
            </tr>
          ))}
      </Table>
      {upTo >= report.steps.length ? (
        <p className="mt-2 text-sm">
          Ends on <strong data-testid={`${report.target}-final`}>{report.plan} with {report.balance.toLocaleString("en-US")}</strong>.
        </p>
      ) : null}
    </section>
  );
}

export function EngineRoom() {
  const [state, action, pending] = useActionState(runEngineRoomAction, initial);
  const [shown, setShown] = useState<number | null>(null);
  const total = state.pipeline?.steps.length ?? 0;
  const upTo = shown === null || shown > total ? total : shown;
  return (
    <>
      <form action={action} onSubmit={() => setShown(null)} className="grid max-w-5xl gap-3 rounded-lg border border-stone-200 bg-white p-4 md:grid-cols-2">
        <label className="flex flex-col text-sm">
          Events: name, type, plan (or -), seconds from the start
          <textarea name="events" rows={5} defaultValue={ARTICLE_EVENTS_TEXT} className="mt-1 rounded-md border border-stone-300 p-2 font-mono text-xs" spellCheck={false} />
        </label>
        <label className="flex flex-col text-sm">
          Deliveries in arrival order (a trailing ! stops the worker during that one)
          <textarea name="deliveries" rows={5} defaultValue={ARTICLE_DELIVERIES_TEXT} className="mt-1 rounded-md border border-stone-300 p-2 font-mono text-xs" spellCheck={false} />
        </label>
        <div className="md:col-span-2">
          <button disabled={pending} className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
            {pending ? "Running both…" : "Run against both handlers"}
          </button>
          <span className="ml-3 text-xs text-stone-500">Each run uses a fresh test account; the deliveries are signed JWTs sent over HTTP to this server.</span>
        </div>
      </form>
      {state.error ? (
        <p role="alert" className="mt-4 max-w-5xl text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      {state.naive && state.pipeline ? (
        <div className="mt-6 space-y-4">
          <label className="flex max-w-md items-center gap-3 text-sm">
            Show steps 1 to {upTo}
            <input type="range" min={1} max={total} value={upTo} onChange={(e) => setShown(Number(e.target.value))} className="flex-1" aria-label="Steps shown" />
          </label>
          {state.checkpoints ? (
            <section className="max-w-5xl rounded-lg border border-stone-200 bg-white p-4" data-testid="checkpoints">
              <h3 className="mb-2 font-semibold">The article&apos;s checkpoints, from these two runs</h3>
              <ul className="space-y-1 text-sm">
                {state.checkpoints.map((c) => (
                  <li key={c.label} data-ok={c.ok}>
                    <span className={c.ok ? "text-green-700" : "text-red-700"}>{c.ok ? "✓" : "✗"}</span> {c.label}: {c.actual}
                    {c.ok ? "" : ` (expected ${c.expected})`}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <div className="grid gap-4 xl:grid-cols-2">
            <RunTable title="Applies on arrival (the naive handler)" report={state.naive} upTo={upTo} />
            <RunTable title="The pipeline: store, then apply once" report={state.pipeline} upTo={upTo} />
          </div>
        </div>
      ) : null}
    </>
  );
}
