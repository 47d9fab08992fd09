import { Coming, PageHeader } from "@/components/page-header";
import { requireOperatorSession } from "@/lib/http/session";

export default async function Page() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Inbox">Every billing webhook that arrived, stored before it was answered.</PageHeader>
      <Coming
        items={[
          "Status (received, processing, applied, ignored, failed, dead), attempts, next attempt, result and copies seen.",
          "Replay of any stored event; replay of all dead events or a time window.",
          "A banner when any event is dead.",
        ]}
      />
    </>
  );
}
