/** The member area's sections (/account/…). Each part adds its member page here, one line: every page must call requireMemberSession(). */
export const memberSections: readonly { href: string; label: string }[] = [
  { href: "/account", label: "Budget and usage" },
  { href: "/account/jobs", label: "Jobs" },
  { href: "/account/links", label: "Links" },
  { href: "/account/events", label: "Billing events" },
];
