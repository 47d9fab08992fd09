import { FaultSwitches } from "@/components/fault-switches";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { checkProvider, type Checked } from "@/lib/provider/check";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { STANDIN_PLANS } from "@/lib/standin/catalog";
import * as standin from "@/lib/standin/scripts";
import { BILLING_EVENT_TYPES } from "@/lib/standin/webhooks";
import { clearFaultAction, setFaultAction } from "./actions";
import { LimitForm, WebhookForm } from "./forms";
import { Table } from "@/components/ui/table";

export const dynamic = "force-dynamic";

const limitText = (n: number | null | undefined) => (n === undefined ? "—" : n === null ? "unlimited" : n.toLocaleString("en"));

function Answer<T>({ result, show }: { result: Checked<T>; show: (value: T) => string }) {
  return result.ok ? (
    <span>{show(result.value)}</span>
  ) : (
    <span className="text-red-700">
      <span className="font-mono">{result.kind}</span>: {result.message}
    </span>
  );
}

export default async function ProviderPage({ searchParams }: { searchParams: Promise<{ check?: string }> }) {
  await requireOperatorSession();
  const { check: checkId } = await searchParams;
  const { engine, config, provider, standin: stand } = getRuntime();
  const [{ faults }, { overrides }, page] = await Promise.all([
    engine.run(standin.faults, {}),
    engine.run(standin.listOverrides, { limit: 100 }),
    engine.run(accounts.list, { limit: 100 }),
  ]);
  const names = new Map(page.accounts.map((a) => [a.id, a.name]));
  const features = [...new Set(STANDIN_PLANS.flatMap((p) => Object.keys(p.entitlements)))];
  const kinde = config.kinde;
  const checkedAccount = checkId ? page.accounts.find((a) => a.id === checkId) : undefined;
  const check = checkedAccount ? await checkProvider(provider, checkedAccount, features) : null;
  return (
    <>
      <PageHeader title="Provider">
        Where limits come from and where usage goes. The gate, the meter and the inbox all reach it through one port; this page shows which
        provider is in use, and the built-in stand-in&rsquo;s plans, limits and fault switches.
      </PageHeader>

      <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm">
        <h2 className="font-semibold">In use: {provider.name === "kinde" ? "Kinde" : "the stand-in"}</h2>
        {kinde ? (
          <dl className="mt-2 grid grid-cols-[12rem_1fr] gap-y-1">
            <dt className="text-stone-500">Domain</dt>
            <dd className="font-mono">{kinde.domain}</dd>
            <dt className="text-stone-500">M2M client id</dt>
            <dd className="font-mono">{kinde.clientId}</dd>
            <dt className="text-stone-500">Audience</dt>
            <dd className="font-mono">{kinde.audience}</dd>
            <dt className="text-stone-500">Webhook keys</dt>
            <dd className="font-mono">{kinde.jwksUrl}</dd>
            <dt className="text-stone-500">Meter read</dt>
            <dd className="font-mono">{kinde.meterRead ? `GET ${kinde.meterRead.path}` : "off (KINDE_METER_READ_PATH=off): the reconciler reports unreadable"}</dd>
            <dt className="text-stone-500">Timeout per call</dt>
            <dd>{config.providerTimeoutMs.toLocaleString("en")} ms</dd>
          </dl>
        ) : (
          <p className="mt-1 text-stone-600">
            The stand-in keeps its state in this app&rsquo;s database and signs webhooks with its own key, published at{" "}
            <a className="font-mono underline" href={stand.webhookKeySetUrl()}>
              {stand.webhookKeySetUrl()}
            </a>
            . Set <span className="font-mono">TOLLBOOTH_PROVIDER=kinde</span> to use Kinde (README, &ldquo;Connecting Kinde&rdquo;).
          </p>
        )}
        {provider.name === "kinde" ? (
          <p className="mt-2 text-stone-600">The stand-in below is not in use; its switches change nothing until TOLLBOOTH_PROVIDER=standin.</p>
        ) : null}
      </section>

      <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm" aria-label="Check an account">
        <h2 className="font-semibold">Check an account against {provider.name === "kinde" ? "Kinde" : "the stand-in"}</h2>
        <p className="mb-3 text-stone-600">Reads the agreement, each limit and this cycle&rsquo;s meter, one call at a time (reads only).</p>
        <form method="get" className="flex items-end gap-3">
          <select name="check" defaultValue={checkId} className="rounded-md border border-stone-300 px-2 py-1.5">
            {page.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.kindeCustomerId ?? a.id})
              </option>
            ))}
          </select>
          <button className="rounded-md bg-stone-900 px-4 py-2 text-white" disabled={page.accounts.length === 0}>
            Check
          </button>
        </form>
        {check ? (
          <dl className="mt-3 grid grid-cols-[12rem_1fr] gap-y-1" data-testid="provider-check">
            <dt className="text-stone-500">Agreement</dt>
            <dd>
              <Answer
                result={check.agreement}
                show={(a) => (a ? `${a.id}, plan ${a.planCode}, cycle ${a.cycle ?? "none"}` : "none: the customer has no current agreement")}
              />
            </dd>
            {check.limits.map((l) => (
              <div key={`l-${l.featureCode}`} className="contents">
                <dt className="text-stone-500">
                  Limit <span className="font-mono">{l.featureCode}</span>
                </dt>
                <dd>
                  <Answer result={l.limit} show={(v) => v} />
                </dd>
              </div>
            ))}
            {check.usage.map((u) => (
              <div key={`u-${u.featureCode}`} className="contents">
                <dt className="text-stone-500">
                  Meter <span className="font-mono">{u.featureCode}</span>
                </dt>
                <dd>
                  <Answer result={u.total} show={(v) => v.toLocaleString("en")} />
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
      </section>

      <section className="mb-6">
        <h2 className="mb-2 font-semibold">Plan catalog (stand-in)</h2>
        <Table className="w-full max-w-xl" columns={["Plan", ...features.map((f) => ({ label: `${f} / cycle`, className: "font-mono" }))]}>
            {STANDIN_PLANS.map((p) => (
              <tr key={p.code} className="border-b border-stone-200">
                <td className="py-2">
                  {p.name} <span className="font-mono text-xs text-stone-500">{p.code}</span>
                </td>
                {features.map((f) => (
                  <td key={f}>{limitText(p.entitlements[f])}</td>
                ))}
              </tr>
            ))}
        </Table>
      </section>

      <div className="mb-6">
        <FaultSwitches faults={faults} setFault={setFaultAction} clearFault={clearFaultAction} />
      </div>

      <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4">
        <h2 className="font-semibold">Per-account limits (stand-in)</h2>
        <p className="mb-3 text-sm text-stone-600">An operator&rsquo;s limit replaces the plan&rsquo;s for one account and feature.</p>
        <LimitForm accounts={page.accounts.map((a) => ({ id: a.id, name: a.name }))} features={features} />
        <Table
          className="mt-4 w-full max-w-3xl"
          columns={["Account", "Feature", "Limit", "Set"]}
          empty={overrides.length === 0 ? "No account has its own limit: every account has its plan\u2019s." : null}
        >
            {overrides.map((o) => (
              <tr key={`${o.accountId}:${o.featureCode}`} className="border-b border-stone-200">
                <td className="py-2">
                  {names.get(o.accountId) ?? ""} <span className="font-mono text-xs text-stone-500">{o.accountId}</span>
                </td>
                <td className="font-mono">{o.featureCode}</td>
                <td>{limitText(o.limitMax)}</td>
                <td>{new Date(o.setAtMs).toISOString().replace("T", " ").slice(0, 19)} UTC</td>
              </tr>
            ))}
        </Table>
      </section>

      <section className="rounded-lg border border-stone-200 bg-white p-4">
        <h2 className="font-semibold">Send a signed webhook (stand-in)</h2>
        <p className="mb-3 text-sm text-stone-600">
          Signs a Kinde-shaped event with the stand-in&rsquo;s key and posts it as Kinde would (application/jwt, one webhook-id for every copy). A
          plan event moves the stand-in&rsquo;s agreement first; an event that happened minutes ago is a replay and moves nothing.
        </p>
        <WebhookForm accounts={page.accounts.map((a) => ({ id: a.id, name: a.name }))} eventTypes={BILLING_EVENT_TYPES} plans={STANDIN_PLANS.map((p) => ({ code: p.code, name: p.name }))} />
      </section>
    </>
  );
}
