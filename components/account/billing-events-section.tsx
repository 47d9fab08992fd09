import { EventTable } from "@/components/inbox/event-table";
import { planLabel } from "@/lib/inbox/allowance";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

/** The account's billing events (Part C) with their results and Replay, and the allowance they granted this period. */
export async function BillingEventsSection({ accountId }: { accountId: string }) {
  const { engine } = getRuntime();
  const [state, { events }] = await Promise.all([engine.run(inbox.accountState, { accountId }), engine.run(inbox.listForAccount, { accountId, limit: 50 })]);
  if (!state) return null;
  return (
    <section aria-labelledby="billing-events">
      <h2 id="billing-events" className="mb-2 text-lg font-semibold">
        Billing events
      </h2>
      <p className="mb-3 text-sm text-stone-600">
        {planLabel(state.plan)} plan; allowance for {state.period}: <strong data-testid="balance">{state.balance.toLocaleString("en-US")}</strong>
        {state.grants.length > 0 ? ` (${state.grants.map((g) => g.reason).join("; ")})` : " (the free allowance)"}.
      </p>
      <EventTable events={events} showAccount={false} />
    </section>
  );
}
