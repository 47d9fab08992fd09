import { Coming, PageHeader } from "@/components/page-header";
import { requireOperatorSession } from "@/lib/http/session";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Links">Short links and QR codes whose clicks are the metered usage.</PageHeader>
      <Coming
        items={[
          "Create a short link with a generated or custom code; its QR code as SVG and PNG.",
          "Clicks this cycle and by day, as a chart.",
          "The review list of closed cycles the reporter would not write.",
        ]}
      />
    </>
  );
}
