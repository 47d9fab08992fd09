import { notFound } from "next/navigation";
import { BudgetSection } from "@/components/account/budget-section";
import { UsageSection } from "@/components/account/usage-section";
import { BillingEventsSection } from "@/components/account/billing-events-section";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * One account. Each part adds its own section as a component in
 * components/account/<part>-section.tsx and one line below.
 */
export default async function AccountPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = /^acct_[0-9a-z]{20}$/.test(id) ? await getRuntime().engine.run(accounts.get, { id }) : null;
  if (!account) notFound();
  const facts: [string, string][] = [
    ["Id", account.id],
    ["Plan", account.plan],
    ["Kinde customer", account.kindeCustomerId ?? "not connected"],
    ["Agreement", account.agreementId ?? "none yet"],
    ["Cycle anchor", account.cycleAnchorMs === null ? "UTC calendar months" : new Date(account.cycleAnchorMs).toISOString()],
    ["Billing status", account.billingStatus],
  ];
  return (
    <>
      <PageHeader title={account.name} />
      <dl className="grid max-w-4xl grid-cols-3 gap-3 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-md border border-stone-200 bg-white p-3">
            <dt className="text-stone-500">{label}</dt>
            <dd className="mt-1 break-all font-mono">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-8 space-y-8">
        {/* part sections go here, one line each */}
        <BudgetSection accountId={account.id} />
        <UsageSection account={account} />
        <BillingEventsSection accountId={account.id} />
      </div>
    </>
  );
}
