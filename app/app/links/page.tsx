import Link from "next/link";
import { units, utcTime } from "@/components/meter/format";
import { TextActionForm } from "@/components/meter/forms";
import { Table } from "@/components/ui/table";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import * as links from "@/lib/links/scripts";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";
import { resolveReviewAction } from "../reconciliation/actions";
import { CreateLinkForm } from "./create-form";
import { requireOperatorSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

export default async function LinksPage() {
  await requireOperatorSession();
  const { engine } = getRuntime();
  const [page, { links: all }, { reviews }] = await Promise.all([
    engine.run(accounts.list, { limit: 200 }),
    engine.run(links.list, { limit: 100 }),
    engine.run(meter.listReviews, { status: "open", limit: 100 }),
  ]);
  const names = new Map(page.accounts.map((a) => [a.id, a.name]));
  return (
    <>
      <PageHeader title="Links">
        Short links and QR codes. Every click on <span className="font-mono">/r/&lt;code&gt;</span> is one row in the append-only ledger
        (feature <span className="font-mono">clicks</span>), committed before the visitor is redirected.
      </PageHeader>
      <CreateLinkForm accounts={page.accounts.map((a) => ({ id: a.id, name: a.name }))} />

      <Table testId="links" className="mt-6 w-full max-w-6xl" columns={["Code", "Destination", "Account", "Created"]} empty={all.length === 0 ? "No links yet. Create one above." : null}>
          {all.map((l) => (
            <tr key={l.code} className="border-b border-stone-200">
              <td className="py-2 font-mono">
                <Link className="underline" href={`/app/links/${l.code}`}>
                  {l.code}
                </Link>
              </td>
              <td className="max-w-md truncate">{l.destination}</td>
              <td>{names.get(l.accountId) ?? l.accountId}</td>
              <td className="text-xs">{utcTime(l.createdAtMs)}</td>
            </tr>
          ))}
      </Table>

      <section className="mt-10 max-w-6xl">
        <h2 className="font-semibold">Closed cycles to review</h2>
        <p className="mb-2 text-sm text-stone-600">
          The reporter never writes a cycle that has closed (what such a write does to an invoice cannot be confirmed), and the reconciler does
          not repair one. They come here for a person to settle.
        </p>
        <Table
          testId="reviews"
          columns={["Account", "Feature", "Cycle", { label: "Ledger", right: true }, { label: "Meter", right: true }, { label: "Why", className: "w-96" }, "Since", ""]}
          empty={reviews.length === 0 ? "Nothing to review." : null}
        >
            {reviews.map((r) => (
              <tr key={`${r.accountId}-${r.feature}-${r.cycle}`} className="border-b border-stone-200 align-top">
                <td className="py-2">
                  <Link className="underline" href={`/app/reconciliation/${r.accountId}?feature=${r.feature}&cycle=${r.cycle}`}>
                    {names.get(r.accountId) ?? r.accountId}
                  </Link>
                </td>
                <td className="font-mono">{r.feature}</td>
                <td className="font-mono">{r.cycle}</td>
                <td className="text-right font-mono">{units(r.ledgerUnits)}</td>
                <td className="text-right font-mono">{units(r.providerUnits)}</td>
                <td className="text-stone-700">{r.reason}</td>
                <td className="text-xs">{utcTime(r.firstAtMs)}</td>
                <td>
                  <TextActionForm
                    action={resolveReviewAction}
                    fields={{ accountId: r.accountId, feature: r.feature, cycle: r.cycle }}
                    name="resolution"
                    placeholder="What was done"
                    label="Mark reviewed"
                  />
                </td>
              </tr>
            ))}
        </Table>
      </section>
    </>
  );
}
