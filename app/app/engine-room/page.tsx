import { PageHeader } from "@/components/page-header";
import { EngineRoom } from "./room";
import { requireOperatorSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

export default async function EngineRoomPage() {
  await requireOperatorSession();
  return (
    <>
      <PageHeader title="Engine Room">
        Part C&apos;s nine deliveries of three events — the plan change three times, the payment five times, one old cancellation,
        and the worker stopping once during the first plan change — sent as signed webhooks to this server, once to a handler that
        applies each on arrival and once to the inbox. Plan and balance after every delivery. Compose your own sequence below.
      </PageHeader>
      <EngineRoom />
      <p className="mt-6 max-w-5xl text-xs text-stone-500">
        The worker&apos;s stop is a drill: the stopped worker&apos;s lease is 1 s here instead of 30 s, so the next copy does not
        wait half a minute. Everything else is the production path: the same endpoint, intake, inbox, worker and handlers.
      </p>
    </>
  );
}
