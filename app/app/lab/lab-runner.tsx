"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LabInput, LabVariant } from "@/lib/gate/lab";
import { runLabAction, type LabState } from "./actions";
import { Table } from "@/components/ui/table";

const n = (value: number) => value.toLocaleString("en-US");

function Stat({ label, value, testId, alarm = false }: { label: string; value: string; testId: string; alarm?: boolean }) {
  return (
    <div>
      <dt className="text-stone-500">{label}</dt>
      <dd className={`font-mono text-lg ${alarm ? "text-red-700" : ""}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Variant({ title, variant }: { title: string; variant: LabVariant }) {
  const over = variant.spentUnits - variant.limitUnits;
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-4" data-testid={`lab-${variant.kind}`}>
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-stone-600">
        <Link className="underline" href={`/app/accounts/${variant.accountId}`}>
          {variant.accountName}
        </Link>
      </p>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
        <Stat label="Started" value={String(variant.started)} testId={`lab-${variant.kind}-started`} />
        <Stat label="Refused" value={String(variant.refused)} testId={`lab-${variant.kind}-refused`} />
        <Stat label="Spent" value={n(variant.spentUnits)} testId={`lab-${variant.kind}-spent`} alarm={over > 0} />
      </dl>
      <p className={`mt-2 text-sm ${over > 0 ? "text-red-700" : "text-green-800"}`}>
        {over > 0 ? `${n(over)} over the limit of ${n(variant.limitUnits)}.` : `Within the limit of ${n(variant.limitUnits)}.`}
      </p>
      <Table className="mt-3 w-full" size="xs" columns={["Job", "Outcome", { label: "Spent", right: true }, "Timeline (ms from start)"]}>
          {variant.jobs.map((job) => (
            <tr key={job.index} className="border-t border-stone-100 align-top">
              <td className="py-1 pr-2 font-mono">#{job.index + 1}</td>
              <td className="py-1 pr-2">
                <span className={job.started ? "text-green-800" : "text-amber-800"}>{job.started ? "started" : "refused"}</span>
                <div className="text-stone-600">{job.reason}</div>
              </td>
              <td className="py-1 pr-2 text-right font-mono">{n(job.spentUnits)}</td>
              <td className="py-1 font-mono text-stone-600">
                {job.timeline.map((t, i) => (
                  <div key={i}>
                    {t.atMs} {t.what}
                  </div>
                ))}
              </td>
            </tr>
          ))}
      </Table>
    </section>
  );
}

export function LabRunner({ defaults }: { defaults: LabInput }) {
  const [state, action, pending] = useActionState<LabState, FormData>(runLabAction, { result: null, error: null });
  const result = state.result;
  const chart = result
    ? [
        { variant: "Plain check", spent: result.check.spentUnits, over: result.check.spentUnits > result.check.limitUnits },
        { variant: "Hold", spent: result.hold.spentUnits, over: result.hold.spentUnits > result.hold.limitUnits },
      ]
    : [];
  return (
    <div className="space-y-6">
      <form action={action} className="flex flex-wrap items-end gap-4 rounded-lg border border-stone-200 bg-white p-4">
        {(
          [
            ["jobs", "Jobs", defaults.jobs],
            ["estimate", "Estimate per job (tokens)", defaults.estimate],
            ["limit", "Limit (tokens)", defaults.limit],
          ] as const
        ).map(([name, label, value]) => (
          <label key={name} className="flex flex-col text-sm">
            <span className="text-stone-600">{label}</span>
            <input name={name} type="number" min={name === "limit" ? 0 : 1} defaultValue={value} required className="mt-1 w-48 rounded-md border border-stone-300 px-2 py-1 font-mono" />
          </label>
        ))}
        <button type="submit" disabled={pending} className="rounded-md bg-stone-900 px-4 py-2 text-sm text-white disabled:opacity-50">
          {pending ? "Running…" : "Run both"}
        </button>
      </form>
      {state.error ? (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      {result ? (
        <>
          <section className="rounded-lg border border-stone-200 bg-white p-4">
            <h2 className="font-semibold">Spent against the limit</h2>
            <p className="text-sm text-stone-600">
              {result.input.jobs} jobs of {n(result.input.estimate)} started together against {n(result.input.limit)}.
            </p>
            <div className="mt-3 h-64 w-full max-w-xl" data-testid="lab-chart">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={chart} margin={{ top: 24, right: 24, left: 24, bottom: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="variant" />
                  <YAxis tickFormatter={(v: number) => n(v)} />
                  <Tooltip formatter={(v) => n(Number(v))} />
                  <ReferenceLine y={result.input.limit} stroke="#b91c1c" strokeDasharray="4 4" label={{ value: `limit ${n(result.input.limit)}`, position: "top", fill: "#b91c1c" }} />
                  <Bar dataKey="spent" name="spent" isAnimationActive={false}>
                    {chart.map((d) => (
                      <Cell key={d.variant} fill={d.over ? "#dc2626" : "#15803d"} />
                    ))}
                    <LabelList dataKey="spent" position="top" formatter={(v) => n(Number(v))} />
                  </Bar>
                </BarChart>
              </ResponsiveContainer>
            </div>
          </section>
          <div className="grid gap-6 xl:grid-cols-2">
            <Variant title="Plain check: read, then run" variant={result.check} />
            <Variant title="Hold: check and hold in one step" variant={result.hold} />
          </div>
        </>
      ) : null}
    </div>
  );
}
