import { BudgetSection } from "@/components/account/budget-section";
import { PageHeader } from "@/components/page-header";
import { requireMemberSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

/** A member's jobs: running and settled, each with its latest events. Read only for session.accountId. */
export default async function MemberJobs() {
  const { accountId } = await requireMemberSession();
  return (
    <>
      <PageHeader title="Jobs">Your account&apos;s budget, running jobs and settled jobs, each with its timeline.</PageHeader>
      <BudgetSection accountId={accountId} jobHref="/account/jobs" />
    </>
  );
}
