export { revokeKey as DELETE } from "@/lib/api/keys";

export const dynamic = "force-dynamic";
