export { getAccount as GET, updateAccount as PATCH } from "@/lib/api/accounts";

export const dynamic = "force-dynamic";
