import Link from "next/link";
import { notFound } from "next/navigation";
import { Facts } from "@/components/facts";
import { utc } from "@/components/inbox/format";
import { ReplayButton } from "@/components/inbox/replay-button";
import { PageHeader } from "@/components/page-header";
import { Table } from "@/components/ui/table";
import * as inbox from "@/lib/inbox/scripts";
import { requireMemberSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { replayOwnEventAction } from "../actions";

export const dynamic = "force-dynamic";

/** One of the member's billing events with its deliveries. The script is scoped to session.accountId: another account's event is a 404. */
export default async function MemberEvent({ params }: { params: Promise<{ id: string }> }) {
  const { accountId } = await requireMemberSession();
  const { id } = await params;
  const event = /^evt_[0-9a-z]{20}$/.test(id) ? await getRuntime().engine.run(inbox.get, { inboxEventId: id, asAccountId: accountId }) : null;
  if (!event) notFound();
  return (
    <>
      <PageHeader title={event.type}>
        <Link className="underline" href="/account/events">
          All billing events
        </Link>
      </PageHeader>
      <Facts
        testId="event"
        facts={[
          ["Event", event.id],
          ["Status", event.status],
          ["Attempts", String(event.attempts)],
          ["Event time", utc(event.occurredAtMs)],
          ["Copies seen", String(event.seenCount)],
          ["Replays", String(event.replays)],
        ]}
      />
      <p className="mt-3 max-w-3xl text-sm text-stone-700" data-testid="event-result">
        {event.result ?? (event.status === "received" ? "Waiting for the worker." : "")}
      </p>
      <div className="mt-3">
        <ReplayButton inboxEventId={event.id} action={replayOwnEventAction} />
      </div>
      <section className="mt-8 max-w-4xl">
        <h2 className="mb-2 font-semibold">Deliveries</h2>
        <Table columns={["Received", "Webhook id", "Stored", { label: "Bytes", right: true }]} empty={event.receipts.length === 0 ? "No deliveries recorded." : null}>
          {event.receipts.map((r) => (
            <tr key={r.id} className="border-b border-stone-200">
              <td className="py-2 text-xs">{utc(r.receivedAtMs)}</td>
              <td className="font-mono text-xs">{r.webhookId ?? "—"}</td>
              <td>{r.stored ? "stored it" : "a copy"}</td>
              <td className="text-right font-mono">{r.sizeBytes}</td>
            </tr>
          ))}
        </Table>
      </section>
      <section className="mt-8 max-w-4xl">
        <h2 className="mb-2 font-semibold">Payload</h2>
        <pre className="overflow-x-auto rounded-md border border-stone-200 bg-white p-3 text-xs">{event.payload}</pre>
      </section>
    </>
  );
}
