"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const sections = [
  { href: "/app", label: "Overview" },
  { href: "/app/accounts", label: "Accounts" },
  { href: "/app/lab", label: "Concurrency Lab" },
  { href: "/app/links", label: "Links" },
  { href: "/app/reconciliation", label: "Reconciliation" },
  { href: "/app/engine-room", label: "Engine Room" },
  { href: "/app/inbox", label: "Inbox" },
  { href: "/app/provider", label: "Provider" },
  { href: "/app/audit", label: "Audit log" },
  { href: "/app/people", label: "Operators" },
] as const;

export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="flex flex-col gap-1">
      {sections.map((s) => {
        const active = s.href === "/app" ? pathname === "/app" : pathname.startsWith(s.href);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm ${active ? "bg-stone-900 text-white" : "text-stone-700 hover:bg-stone-200"}`}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
