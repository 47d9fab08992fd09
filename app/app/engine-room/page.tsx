import { Coming, PageHeader } from "@/components/page-header";
import { requireOperatorSession } from "@/lib/http/session";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Engine Room">The article’s nine deliveries of three events, run against the pipeline and against a handler that applies on arrival.</PageHeader>
      <Coming
        items={[
          "Step by step, the account's plan and balance after every delivery.",
          "The naive handler ends at 2,950; the pipeline ends on Pro with 500.",
          "Compose and run your own sequence of deliveries.",
        ]}
      />
    </>
  );
}
