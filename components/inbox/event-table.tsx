import { replayEventAction } from "@/app/app/inbox/actions";
import type { ReplayState } from "@/app/app/inbox/replay-answer";
import type { InboxEventView } from "@/lib/inbox/scripts";
import { Table } from "@/components/ui/table";
import { STATUS_STYLE, utc } from "./format";
import { ReplayButton } from "./replay-button";

/**
 * Billing events with status, attempts, next attempt, result, copies seen and
 * Replay. A member's page passes its own replay action and where an event's
 * page is (`eventHref`); the operator's pages use the defaults.
 */
export function EventTable({
  events,
  showAccount = true,
  replayAction = replayEventAction,
  eventHref,
}: {
  events: InboxEventView[];
  showAccount?: boolean;
  replayAction?: (previous: ReplayState, form: FormData) => Promise<ReplayState>;
  eventHref?: (id: string) => string;
}) {
  if (events.length === 0) return <p className="rounded-lg border border-dashed border-stone-300 bg-white p-6 text-stone-600">No billing events yet.</p>;
  return (
    <div className="overflow-x-auto">
      <Table testId="inbox-events" columns={["Event time", "Type", ...(showAccount ? ["Account"] : []), "Status", "Attempts", "Next attempt", "Copies", "Result", ""]}>
          {events.map((e) => (
            <tr key={e.id} className="border-b border-stone-200 align-top" data-event-id={e.id} data-status={e.status}>
              <td className="py-2 pr-3 whitespace-nowrap">
                {utc(e.occurredAtMs)}
                <div className="font-mono text-xs text-stone-500">
                  {eventHref ? (
                    <a className="underline" href={eventHref(e.id)}>
                      {e.id}
                    </a>
                  ) : (
                    e.id
                  )}
                </div>
              </td>
              <td className="pr-3 font-mono text-xs" data-cell="type">{e.type}</td>
              {showAccount ? (
                <td className="pr-3 font-mono text-xs">
                  {e.accountId ? (
                    <a className="underline" href={`/app/accounts/${e.accountId}`}>
                      {e.accountId}
                    </a>
                  ) : (
                    (e.customerId ?? "—")
                  )}
                </td>
              ) : null}
              <td className="pr-3">
                <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[e.status] ?? ""}`}>{e.status}</span>
              </td>
              <td className="pr-3">{e.attempts}</td>
              <td className="pr-3 whitespace-nowrap">{e.status === "failed" ? utc(e.dueAtMs) : e.status === "processing" ? `lease to ${utc(e.dueAtMs)}` : "—"}</td>
              <td className="pr-3" data-cell="copies">{e.seenCount}</td>
              <td className="pr-3 max-w-md">
                {e.result ?? (e.status === "received" ? "waiting for the worker" : "")}
                {e.lastError && e.status !== "dead" ? <div className="text-xs text-orange-800">last error: {e.lastError}</div> : null}
                {e.replays > 0 ? <div className="text-xs text-stone-500">replayed {e.replays}×</div> : null}
              </td>
              <td>
                <ReplayButton inboxEventId={e.id} action={replayAction} />
              </td>
            </tr>
          ))}
      </Table>
    </div>
  );
}
