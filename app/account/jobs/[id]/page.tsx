import Link from "next/link";
import { notFound } from "next/navigation";
import { Facts } from "@/components/facts";
import { utcTime } from "@/components/meter/format";
import { PageHeader } from "@/components/page-header";
import { Table } from "@/components/ui/table";
import { isAppError } from "@/lib/errors";
import * as gate from "@/lib/gate/scripts";
import { requireMemberSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const n = (value: number | null) => (value === null ? "—" : value.toLocaleString("en-US"));

/** One of the member's jobs with its whole timeline. The script is scoped to session.accountId: another account's job is a 404. */
export default async function MemberJob({ params }: { params: Promise<{ id: string }> }) {
  const { accountId } = await requireMemberSession();
  const { id } = await params;
  if (!/^job_[0-9a-z]{20}$/.test(id)) notFound();
  const found = await getRuntime()
    .engine.run(gate.getJob, { jobId: id, asAccountId: accountId })
    .catch((error: unknown) => {
      if (isAppError(error) && error.code === "not_found") return null;
      throw error;
    });
  if (!found) notFound();
  const { job, events, omittedEvents } = found;
  return (
    <>
      <PageHeader title={`Job ${job.id}`}>
        <Link className="underline" href="/account/jobs">
          All jobs
        </Link>
      </PageHeader>
      <Facts
        testId="job"
        facts={[
          ["Status", job.status],
          ["Key", job.key],
          ["Feature", `${job.feature} (${job.cycle})`],
          ["Held", n(job.heldUnits)],
          ["Used", n(job.usedUnits)],
          ["Charged / released", job.status === "running" ? "not settled yet" : `${n(job.chargedUnits)} / ${n(job.releasedUnits)}`],
        ]}
      />
      {job.endReason ? <p className="mt-3 max-w-3xl text-sm text-stone-700">{job.endReason}</p> : null}
      <section className="mt-8 max-w-4xl">
        <h2 className="mb-2 font-semibold">Timeline</h2>
        {omittedEvents > 0 ? <p className="text-sm text-stone-500">{omittedEvents} earlier events are not shown.</p> : null}
        <Table columns={["When", "What", { label: "Units", right: true }, "Note"]} empty={events.length === 0 ? "No events." : null} testId="job-events">
          {events.map((e, i) => (
            <tr key={i} className="border-b border-stone-200">
              <td className="py-2 text-xs">{utcTime(e.atMs)}</td>
              <td className="font-mono">{e.kind}</td>
              <td className="text-right font-mono">{n(e.units)}</td>
              <td className="text-xs text-stone-600">{e.note ?? ""}</td>
            </tr>
          ))}
        </Table>
      </section>
    </>
  );
}
