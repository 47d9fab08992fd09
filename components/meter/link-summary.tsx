/**
 * One link as its pages show it (the operator's /app/links/<code> and the
 * member's /account/links/<code>): short URL, destination, clicks this cycle,
 * the QR code with SVG and PNG downloads, and clicks by day.
 */
import { ClicksByDayChart } from "@/components/meter/charts";
import { units, utcTime } from "@/components/meter/format";
import { qrSvg } from "@/lib/links/qr";
import type * as links from "@/lib/links/scripts";
import type { ResultOf } from "@/lib/scripts/define";

export type LinkStats = NonNullable<ResultOf<typeof links.stats>>;

/** The link's QR code as files: SVG and PNG (the QR route answers the link's own account or the operator only). */
export function QrDownloads({ code }: { code: string }) {
  const qr = `/api/v1/links/${encodeURIComponent(code)}/qr`;
  return (
    <>
      <a className="underline" href={`${qr}?format=svg&download=1`}>
        SVG
      </a>
      <a className="underline" href={`${qr}?format=png&download=1`}>
        PNG
      </a>
    </>
  );
}

export async function LinkSummary({ stats, shortUrl }: { stats: LinkStats; shortUrl: string }) {
  const svg = await qrSvg(shortUrl);
  return (
    <>
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
            <QrDownloads code={stats.link.code} />
          </figcaption>
        </figure>
      </div>

      <section className="mt-8 max-w-4xl">
        <h2 className="mb-2 font-semibold">Clicks by day</h2>
        <ClicksByDayChart days={stats.days} />
      </section>
    </>
  );
}
