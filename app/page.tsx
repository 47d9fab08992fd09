import Link from "next/link";

const parts = [
  {
    name: "Gate",
    problem: "Five jobs check the same 100,000-token limit at once, all see room, and together spend 200,000.",
    answer:
      "Each job reserves its estimate before it starts: the check and the hold are one transaction. Every step is charged against the hold and stops at it. A lease renewed by every charge returns the hold of a worker that died. Settling charges what was used and releases the rest. When the provider's limit cannot be read for ten minutes, new work is refused rather than guessed at.",
  },
  {
    name: "Meter",
    problem: "The provider's meter drifts from what really happened: late clicks, reports sent twice, reports that never arrive.",
    answer:
      "Every unit of usage is one row in an append-only ledger, keyed so a retry cannot count it twice, with counters spread over 64 rows. A reporter sends absolute totals, so a repeat changes nothing. A reconciler compares the ledger, the last total sent and the provider's total, repairs an open cycle, reads the meter back and keeps the evidence.",
  },
  {
    name: "Inbox",
    problem: "Billing webhooks repeat, arrive late, or stop halfway, and a customer ends up on the wrong plan with the wrong balance.",
    answer:
      "Each webhook is verified as a signed JWT, stored before it is answered, and deduplicated on its webhook-id. A worker applies each stored event once, in one transaction, guarded by the event's own time so an old cancellation cannot undo a newer upgrade. Failures retry with backoff and die after six tries, visible and replayable.",
  },
];

export default function Landing() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-widest text-amber-700">Tollbooth</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Usage billing that stays correct under load</h1>
      <p className="mt-4 text-lg text-stone-600">
        For apps that bill their customers by usage through Kinde. Tollbooth keeps three promises that break when traffic gets real: a
        limit is a limit, the invoice matches what happened, and a billing event changes a customer once.
      </p>
      <div className="mt-10 grid gap-6">
        {parts.map((part) => (
          <section key={part.name} className="rounded-lg border border-stone-200 bg-white p-6 shadow-sm">
            <h2 className="text-xl font-semibold">{part.name}</h2>
            <p className="mt-2 text-stone-500">
              <span className="font-medium text-stone-700">The problem: </span>
              {part.problem}
            </p>
            <p className="mt-2 text-stone-700">{part.answer}</p>
          </section>
        ))}
      </div>
      <div className="mt-10 flex gap-4">
        <Link href="/app" className="rounded-md bg-stone-900 px-4 py-2 font-medium text-white hover:bg-stone-700">
          Open the dashboard
        </Link>
        <a href="/api/health" className="rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100">
          Health
        </a>
      </div>
    </main>
  );
}
