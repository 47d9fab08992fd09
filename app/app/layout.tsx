import Link from "next/link";
import type { ReactNode } from "react";
import { DeadEventsBanner } from "@/components/inbox/dead-banner";
import { SignedIn } from "@/components/signed-in";
import { Nav } from "@/components/nav";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const me = await requireOperatorSession();
  const { config } = getRuntime();
  return (
    <div className="flex min-h-screen">
      <aside className="w-56 shrink-0 border-r border-stone-200 bg-stone-100 p-4">
        <Link href="/" className="mb-6 block px-3 text-lg font-bold">
          Tollbooth
        </Link>
        <Nav />
        <div className="mt-8 space-y-1 px-3 text-xs text-stone-500">
          <p>
            engine: <span className="font-mono">{config.engine}</span>
          </p>
          <p>
            provider: <span className="font-mono">{config.provider}</span>
          </p>
        </div>
        <SignedIn email={me.email} />
      </aside>
      <main className="flex-1 p-8">
        <DeadEventsBanner />
        {children}
      </main>
    </div>
  );
}
