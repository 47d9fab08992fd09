import { Coming, PageHeader } from "@/components/page-header";
import { requireOperatorSession } from "@/lib/http/session";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Reconciliation">Is the provider’s meter equal to what really happened? Per account and feature, with evidence.</PageHeader>
      <Coming
        items={[
          "The ledger total, the last total sent and the provider’s total, the verdict and its cause.",
          "The evidence history, and a chart of ledger against meter over time.",
          "A Run-now button, and the stand-in's fault switches to cause a drift and watch it found and repaired.",
        ]}
      />
    </>
  );
}
