/**
 * The gate's part of the account page (Part A): the budget (limit, used,
 * held, remaining), where the limit came from and how old it is, and the
 * running and settled jobs with their timelines. A server component: it reads
 * through gate.accountView in one query.
 */
import { decideLimit } from "@/lib/gate/freshness";
import * as gate from "@/lib/gate/scripts";
import { getRuntime } from "@/lib/runtime";
import { Table } from "@/components/ui/table";

const n = (value: number | null) => (value === null ? "no maximum" : value.toLocaleString("en-US"));

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

const stateWords = {
  fresh: "fresh",
  stale: "stale: the provider could not be read; used as it is for up to 10 minutes",
  refresh: "due for a read at the next admission",
  pending: "being read now",
  unavailable: "unknown: new jobs are refused until it can be read",
} as const;

const time = (ms: number | null) => (ms === null ? "—" : new Date(ms).toISOString().replace("T", " ").slice(0, 19));

type View = Awaited<ReturnType<typeof loadView>>;

async function loadView(accountId: string) {
  return getRuntime().engine.run(gate.accountView, { accountId, jobs: 20, eventsPerJob: 12 });
}

function Jobs({ title, rows, nowMs, testId, jobHref }: { title: string; rows: View["running"]; nowMs: number; testId: string; jobHref?: string }) {
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-stone-500">None.</p>
      ) : (
        <Table className="mt-2 w-full" size="xs" testId={testId} columns={["Job", "Status", { label: "Held", right: true }, { label: "Used / charged", right: true }, "Timeline"]}>
            {rows.map(({ job, events, omittedEvents }) => (
              <tr key={job.id} className="border-t border-stone-100 align-top">
                <td className="py-1 pr-2 font-mono">
                  {jobHref ? (
                    <a className="underline" href={`${jobHref}/${job.id}`}>
                      {job.id}
                    </a>
                  ) : (
                    job.id
                  )}
                  <div className="text-stone-500">key {job.key}</div>
                </td>
                <td className="py-1 pr-2">
                  {job.status}
                  {job.status === "running" ? <div className="text-stone-500">lease ends in {age(job.leaseExpiresAtMs - nowMs)}</div> : null}
                  {job.endReason ? <div className="max-w-xs text-stone-600">{job.endReason}</div> : null}
                </td>
                <td className="py-1 pr-2 text-right font-mono">{n(job.heldUnits)}</td>
                <td className="py-1 pr-2 text-right font-mono">{n(job.chargedUnits ?? job.usedUnits)}</td>
                <td className="py-1 font-mono text-stone-600">
                  {omittedEvents > 0 ? <div>… {omittedEvents} earlier</div> : null}
                  {events.map((e, i) => (
                    <div key={i}>
                      {time(e.atMs).slice(11)} {e.kind} {e.units > 0 ? n(e.units) : ""}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
        </Table>
      )}
    </div>
  );
}

/** `jobHref`: where a job's own page is (the member area has one: /account/jobs). */
export async function BudgetSection({ accountId, jobHref }: { accountId: string; jobHref?: string }) {
  const view = await loadView(accountId);
  const nowMs = view.nowMs;
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-4" data-testid="budget-section">
      <h2 className="text-lg font-semibold">Budget and jobs</h2>
      <p className="text-sm text-stone-600">New jobs per minute: {view.admissionsPerMinute}.</p>
      {view.budgets.length === 0 ? (
        <p className="mt-2 text-sm text-stone-500">No job has been admitted yet.</p>
      ) : (
        <Table className="mt-3 w-full max-w-3xl" testId="budgets" columns={["Cycle", "Feature", { label: "Limit", right: true }, { label: "Used", right: true }, { label: "Held", right: true }, { label: "Remaining", right: true }]}>
            {view.budgets.map((b) => (
              <tr key={`${b.cycle}-${b.feature}`} className="border-t border-stone-100 font-mono">
                <td className="py-1 pr-3">{b.cycle}</td>
                <td className="py-1 pr-3">{b.feature}</td>
                <td className="py-1 pr-3 text-right">{n(b.limitUnits)}</td>
                <td className="py-1 pr-3 text-right">{n(b.usedUnits)}</td>
                <td className="py-1 pr-3 text-right">{n(b.heldUnits)}</td>
                <td className="py-1 pr-3 text-right">{n(b.remainingUnits)}</td>
              </tr>
            ))}
        </Table>
      )}
      <div className="mt-4">
        <h3 className="font-medium">Where the limit comes from</h3>
        {view.cachedLimits.length === 0 ? (
          <p className="mt-1 text-sm text-stone-500">Not read yet: the first admission reads it from the billing provider.</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm" data-testid="limit-sources">
            {view.cachedLimits.map((l) => {
              const state = decideLimit(l, nowMs).use;
              return (
                <li key={l.feature}>
                  <span className="font-mono">{l.feature}</span>:{" "}
                  {l.kind === "unread" ? "not read yet" : l.kind === "unlimited" ? "no maximum" : n(l.maxUnits)}, from <span className="font-mono">{l.source}</span>
                  {l.readAtMs !== null ? `, read ${age(nowMs - l.readAtMs)} ago` : ""} — {stateWords[state]}
                  {l.lastError ? <span className="text-amber-800"> (last attempt: {l.lastError})</span> : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div className="mt-4 space-y-4">
        <Jobs title="Running jobs" rows={view.running} nowMs={nowMs} testId="running-jobs" jobHref={jobHref} />
        <Jobs title="Settled jobs" rows={view.settled} nowMs={nowMs} testId="settled-jobs" jobHref={jobHref} />
      </div>
    </section>
  );
}
