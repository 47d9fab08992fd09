export { getAccount as GET } from "@/lib/api/accounts";

export const dynamic = "force-dynamic";
