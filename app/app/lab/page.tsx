import { Coming, PageHeader } from "@/components/page-header";
import { requireOperatorSession } from "@/lib/http/session";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Concurrency Lab">Five jobs, one limit: the same jobs run twice on fresh accounts, once with a plain check and once with a hold.</PageHeader>
      <Coming
        items={[
          "Inputs: jobs, estimate and limit (defaults 5 × 40,000 against 100,000).",
          "Side by side: what started, what was refused and why, and what was spent, as a chart (200,000 with a plain check, 80,000 with a hold).",
          "It drives the real gate, not a simulation of it.",
        ]}
      />
    </>
  );
}
