import { Facts } from "@/components/facts";
import { PageHeader } from "@/components/page-header";
import { requestTimeMs } from "@/components/time";
import * as accounts from "@/lib/accounts/scripts";
import { requireMemberSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { cycleOf } from "@/lib/usage/cycle";
import * as usage from "@/lib/usage/scripts";

export const dynamic = "force-dynamic";

const FEATURES = ["tokens", "clicks"] as const;

/**
 * A member's home: their account, its plan and this cycle's usage. Only
 * session.accountId is ever read; the other member pages (jobs, links,
 * billing events) pass it to their scripts the same way.
 */
export default async function MemberHome() {
  const { accountId } = await requireMemberSession();
  const { engine } = getRuntime();
  const account = await engine.run(accounts.get, { id: accountId });
  if (!account) return <PageHeader title="Account not found" />;
  const cycle = cycleOf(requestTimeMs(), account.cycleAnchorMs);
  const totals = await Promise.all(FEATURES.map(async (feature) => [feature, (await engine.run(usage.total, { accountId, feature, cycle: cycle.name })).units] as const));
  const facts: [string, string][] = [
    ["Plan", account.plan],
    ["Billing status", account.billingStatus],
    ["Cycle", `${cycle.name} (${new Date(cycle.startMs).toISOString().slice(0, 10)} to ${new Date(cycle.endMs).toISOString().slice(0, 10)})`],
    ...totals.map(([feature, units]) => [`${feature} this cycle`, units.toLocaleString("en")] as [string, string]),
  ];
  return (
    <>
      <PageHeader title={account.name}>Your account&apos;s plan and usage this cycle.</PageHeader>
      <Facts facts={facts} testId="member-account" />
      <p className="mt-6 text-sm text-stone-600">
        Your jobs, short links and billing events are in the menu; each page reads only this account.
      </p>
    </>
  );
}
