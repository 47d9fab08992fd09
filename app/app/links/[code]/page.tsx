import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ClicksByDayChart } from "@/components/meter/charts";
import { TextActionForm } from "@/components/meter/forms";
import { units, utcTime } from "@/components/meter/format";
import { Table } from "@/components/meter/table";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { originOf, shortUrlOf } from "@/lib/links/http";
import { qrSvg } from "@/lib/links/qr";
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
  const svg = await qrSvg(shortUrl);
  const { entries } = await engine.run(usage.recent, { accountId: stats.link.accountId, feature: "clicks", cycle: stats.cycle, limit: 200 });
  const recent = entries.filter((e) => e.ref === stats.link.code || (e.source === "correction" && entries.some((c) => c.key === e.ref && c.ref === stats.link.code))).slice(0, 25);
  const corrected = new Set(entries.filter((e) => e.source === "correction").map((e) => e.ref));
  const qr = `/api/v1/links/${encodeURIComponent(stats.link.code)}/qr`;
  return (
    <>
      <PageHeader title={`Link ${stats.link.code}`}>
        <Link className="underline" href="/app/links">
          All links
        </Link>{" "}
        · for <Link className="underline" href={`/app/accounts/${stats.link.accountId}`}>{account?.name ?? stats.link.accountId}</Link>
      </PageHeader>
      <div className="flex flex-wrap gap-8">
        <dl className="grid max-w-2xl grid-cols-[10rem_1fr] gap-y-2 text-sm">
          <dt className="text-stone-500">Short URL</dt>
          <dd className="font-mono" data-testid="short-url">
            {shortUrl}
          </dd>
          <dt className="text-stone-500">Destination</dt>
          <dd className="break-all">{stats.link.destination}</dd>
          <dt className="text-stone-500">Created</dt>
          <dd>{utcTime(stats.link.createdAtMs)}</dd>
          <dt className="text-stone-500">Cycle</dt>
          <dd className="font-mono">
            {stats.cycle} ({utcTime(stats.cycleStartMs)} to {utcTime(stats.cycleEndMs)})
          </dd>
          <dt className="text-stone-500">Clicks this cycle</dt>
          <dd className="text-xl font-semibold" data-testid="clicks">
            {units(stats.clicks)}
          </dd>
        </dl>
        <figure className="w-48">
          {/* The SVG comes from the qrcode package, made on this server from the short URL. */}
          <div className="rounded-md border border-stone-200 bg-white p-2" data-testid="qr" dangerouslySetInnerHTML={{ __html: svg }} />
          <figcaption className="mt-2 flex gap-3 text-sm">
            <a className="underline" href={`${qr}?format=svg&download=1`}>
              SVG
            </a>
            <a className="underline" href={`${qr}?format=png&download=1`}>
              PNG
            </a>
          </figcaption>
        </figure>
      </div>

      <section className="mt-8 max-w-4xl">
        <h2 className="mb-2 font-semibold">Clicks by day</h2>
        <ClicksByDayChart days={stats.days} />
      </section>

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
