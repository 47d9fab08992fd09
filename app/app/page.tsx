import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { getRuntime } from "@/lib/runtime";
import { requireOperatorSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

export default async function Overview() {
  await requireOperatorSession();
  const runtime = getRuntime();
  const info = await runtime.engine.info();
  const firstPage = await runtime.engine.run(accounts.list, { limit: 200 });
  const facts: [string, string][] = [
    ["Engine", info.kind === "sqlite" ? "Embedded SQLite (this machine)" : "Convex"],
    ["Migration", info.migrationVersion === null ? "managed by Convex" : String(info.migrationVersion)],
    ["Billing provider", runtime.config.provider === "standin" ? "Built-in stand-in" : "Kinde"],
    ["Accounts", firstPage.nextAfterId ? "200+" : String(firstPage.accounts.length)],
  ];
  return (
    <>
      <PageHeader title="Overview">What Tollbooth is running on, and where to go next.</PageHeader>
      <dl className="grid max-w-3xl grid-cols-2 gap-4">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-stone-200 bg-white p-4">
            <dt className="text-sm text-stone-500">{label}</dt>
            <dd className="mt-1 text-lg font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-stone-600">
        Start with <Link className="underline" href="/app/accounts">Accounts</Link> to create a customer, or the{" "}
        <Link className="underline" href="/app/lab">Concurrency Lab</Link> to watch five jobs race for one limit.
      </p>
    </>
  );
}
