import { PageHeader } from "@/components/page-header";
import { LAB_DEFAULTS } from "@/lib/gate/lab";
import { requireOperatorSession } from "@/lib/http/session";
import { LabRunner } from "./lab-runner";

export const dynamic = "force-dynamic";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Concurrency Lab">
        Jobs that start at the same moment against one limit, run twice on fresh accounts: once with a plain check (read what is used, run if it
        fits) and once with a hold (check and hold in one transaction, charge against the hold, settle). Both go through the real engine, the
        provider&apos;s limit and the usage ledger.
      </PageHeader>
      <LabRunner defaults={LAB_DEFAULTS} />
    </>
  );
}
