export { charge as POST } from "@/lib/api/gate";

export const dynamic = "force-dynamic";
