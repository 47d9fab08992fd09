// The handlers live in lib/api/accounts.ts so the production server can call them without Next.js's router.
export { openAccount as POST, listAccounts as GET } from "@/lib/api/accounts";

export const dynamic = "force-dynamic";
