import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TextActionForm } from "@/components/meter/forms";
import { utcTime } from "@/components/meter/format";
import { LinkSummary } from "@/components/meter/link-summary";
import { Table } from "@/components/ui/table";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { originOf, shortUrlOf } from "@/lib/links/http";
import { ANY_CODE_PATTERN } from "@/lib/links/rules";
import * as links from "@/lib/links/scripts";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import * as usage from "@/lib/usage/scripts";
import { correctEntryAction } from "../../reconciliation/actions";

export const dynamic = "force-dynamic";

/** One link: its short URL and QR code, clicks this cycle by day, and its latest clicks (each can be corrected). */
export default async function LinkPage({ params, searchParams }: { params: Promise<{ code: string }>; searchParams: Promise<{ cycle?: string }> }) {
  await requireOperatorSession();
  const { code } = await params;
  const { cycle } = await searchParams;
  const { engine } = getRuntime();
  const stats = ANY_CODE_PATTERN.test(code) ? await engine.run(links.stats, { code, ...(cycle && /^\d{4}-\d{2}$/.test(cycle) ? { cycle } : {}) }) : null;
  if (!stats) notFound();
  const account = await engine.run(accounts.get, { id: stats.link.accountId });
  const shortUrl = shortUrlOf(originOf(await headers(), "http://localhost"), stats.link.code);
  const { entries } = await engine.run(usage.recent, { accountId: stats.link.accountId, feature: "clicks", cycle: stats.cycle, limit: 200 });
  const recent = entries.filter((e) => e.ref === stats.link.code || (e.source === "correction" && entries.some((c) => c.key === e.ref && c.ref === stats.link.code))).slice(0, 25);
  const corrected = new Set(entries.filter((e) => e.source === "correction").map((e) => e.ref));
  return (
    <>
      <PageHeader title={`Link ${stats.link.code}`}>
        <Link className="underline" href="/app/links">
          All links
        </Link>{" "}
        · for <Link className="underline" href={`/app/accounts/${stats.link.accountId}`}>{account?.name ?? stats.link.accountId}</Link>
      </PageHeader>
      <LinkSummary stats={stats} shortUrl={shortUrl} />

      <section className="mt-8 max-w-5xl">
        <h2 className="mb-1 font-semibold">Latest clicks</h2>
        <p className="mb-2 text-sm text-stone-600">
          A click a person or a bot should not have caused is not deleted: a correction is a new row of -1 in the click&rsquo;s cycle, with a reason.
        </p>
        <Table columns={["When", "Key", { label: "Units", right: true }, ""]} empty={recent.length === 0 ? "No clicks in this cycle yet." : null}>
            {recent.map((e) => (
              <tr key={e.key} className="border-b border-stone-200">
                <td className="py-2 text-xs">{utcTime(e.atMs)}</td>
                <td className="font-mono text-xs">{e.key}</td>
                <td className="text-right font-mono">{e.units}</td>
                <td className="pl-4">
                  {e.source === "correction" ? (
                    <span className="text-xs text-stone-600">correction: {e.reason}</span>
                  ) : corrected.has(e.key) ? (
                    <span className="text-xs text-stone-500">corrected</span>
                  ) : (
                    <TextActionForm action={correctEntryAction} fields={{ entryKey: e.key }} name="reason" placeholder="Why (e.g. bot)" label="Correct" />
                  )}
                </td>
              </tr>
            ))}
        </Table>
      </section>
    </>
  );
}
