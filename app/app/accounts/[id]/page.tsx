import { notFound } from "next/navigation";
import { BudgetSection } from "@/components/account/budget-section";
import { UsageSection } from "@/components/account/usage-section";
import { BillingEventsSection } from "@/components/account/billing-events-section";
import { ApiKeysSection, EditAccountSection, MembersSection } from "@/components/account/auth-sections";
import { PlanLimitsSection } from "@/components/account/plan-section";
import { Facts } from "@/components/facts";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * One account. Each part adds its own section as a component in
 * components/account/<part>-section.tsx and one line below.
 */
export default async function AccountPage({ params }: { params: Promise<{ id: string }> }) {
  await requireOperatorSession();
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
      <Facts facts={facts} />
      <div className="mt-8 space-y-8">
        {/* part sections go here, one line each */}
        <EditAccountSection account={account} />
        <PlanLimitsSection accountId={account.id} />
        <BudgetSection accountId={account.id} />
        <UsageSection account={account} />
        <BillingEventsSection accountId={account.id} />
        <ApiKeysSection accountId={account.id} />
        <MembersSection accountId={account.id} />
      </div>
    </>
  );
}
