import Link from "next/link";
import type { ReactNode } from "react";
import { SignedIn } from "@/components/signed-in";
import { memberSections } from "@/components/member-nav";
import { requireMemberSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

/**
 * The member area: an account member sees their own account here and
 * nothing else. Every page under /account calls requireMemberSession() and
 * reads only session.accountId (tests/api/guards.test.ts checks the call).
 */
export default async function MemberLayout({ children }: { children: ReactNode }) {
  const me = await requireMemberSession();
  return (
    <div className="flex min-h-screen">
      <aside className="w-56 shrink-0 border-r border-stone-200 bg-stone-100 p-4">
        <Link href="/account" className="mb-6 block px-3 text-lg font-bold">
          Tollbooth
        </Link>
        <nav aria-label="Account" className="flex flex-col gap-1">
          {memberSections.map((s) => (
            <Link key={s.href} href={s.href} className="rounded-md px-3 py-2 text-sm text-stone-700 hover:bg-stone-200">
              {s.label}
            </Link>
          ))}
        </nav>
        <SignedIn email={me.email} />
      </aside>
      <main className="flex-1 p-8">{children}</main>
    </div>
  );
}
