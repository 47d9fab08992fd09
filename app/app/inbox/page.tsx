import Link from "next/link";
import { BulkReplay } from "@/components/inbox/bulk-replay";
import { EventTable } from "@/components/inbox/event-table";
import { STATUS_STYLE } from "@/components/inbox/format";
import { PageHeader } from "@/components/page-header";
import { INBOX_STATUSES, type InboxStatus } from "@/lib/inbox/repo";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";
import { requireOperatorSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

export default async function InboxPage({ searchParams }: { searchParams: Promise<{ status?: string; before?: string }> }) {
  await requireOperatorSession();
  const { status: rawStatus, before } = await searchParams;
  const status = INBOX_STATUSES.includes(rawStatus as InboxStatus) ? (rawStatus as InboxStatus) : undefined;
  const beforeMs = before && /^\d{1,16}$/.test(before) ? Number(before) : undefined;
  const { engine } = getRuntime();
  const [counts, page] = await Promise.all([
    engine.run(inbox.counts, {}),
    engine.run(inbox.list, { limit: 100, ...(status ? { status } : {}), ...(beforeMs !== undefined && !status ? { beforeReceivedAtMs: beforeMs } : {}) }),
  ]);
  const shown = (n: number) => (n >= counts.cap ? `${counts.cap}+` : String(n));
  const last = page.events.at(-1);
  return (
    <>
      <PageHeader title="Inbox">
        Every billing webhook that arrived, stored before it was answered and applied once by the worker. A copy only counts; an
        ignored event keeps its reason; a dead one needs a person — fix the cause, then replay it.
      </PageHeader>
      <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2 text-sm">
        <Link href="/app/inbox" className={`rounded-md border px-3 py-1 ${status ? "border-stone-300" : "border-stone-900 font-semibold"}`}>
          all
        </Link>
        {INBOX_STATUSES.map((s) => (
          <Link key={s} href={`/app/inbox?status=${s}`} className={`rounded-md border px-3 py-1 ${status === s ? "border-stone-900 font-semibold" : "border-stone-300"}`}>
            <span className={`mr-1 rounded px-1.5 text-xs ${STATUS_STYLE[s]}`}>{shown(counts.byStatus[s] ?? 0)}</span>
            {s}
          </Link>
        ))}
      </nav>
      <div className="mb-6">
        <BulkReplay />
      </div>
      <EventTable events={page.events} />
      {!status && last && page.events.length === 100 ? (
        <a className="mt-4 inline-block underline" href={`/app/inbox?before=${last.receivedAtMs}`}>
          Older events
        </a>
      ) : null}
    </>
  );
}
