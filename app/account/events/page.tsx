import { EventTable } from "@/components/inbox/event-table";
import { PageHeader } from "@/components/page-header";
import { planLabel } from "@/lib/inbox/allowance";
import * as inbox from "@/lib/inbox/scripts";
import { requireMemberSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { replayOwnEventAction } from "./actions";

export const dynamic = "force-dynamic";

/** A member's billing events (their account's inbox events) with status, attempts and Replay. Read only for session.accountId. */
export default async function MemberEvents() {
  const { accountId } = await requireMemberSession();
  const { engine } = getRuntime();
  const [state, { events }] = await Promise.all([engine.run(inbox.accountState, { accountId }), engine.run(inbox.listForAccount, { accountId, limit: 50 })]);
  return (
    <>
      <PageHeader title="Billing events">
        What your billing provider told us, and what it did. Replay runs an event again through the same checks: a payment already
        granted grants nothing more, an old plan change stays ignored.
      </PageHeader>
      {state ? (
        <p className="mb-4 text-sm text-stone-600">
          {planLabel(state.plan)} plan; allowance for {state.period}: <strong data-testid="balance">{state.balance.toLocaleString("en-US")}</strong>.
        </p>
      ) : null}
      <EventTable events={events} showAccount={false} replayAction={replayOwnEventAction} eventHref={(id) => `/account/events/${id}`} />
    </>
  );
}
