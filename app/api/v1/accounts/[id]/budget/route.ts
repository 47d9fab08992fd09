export { budget as GET } from "@/lib/api/gate";

export const dynamic = "force-dynamic";
