// The handlers live in lib/api/keys.ts so the production server can call them without Next.js's router.
export { listKeys as GET, createKey as POST } from "@/lib/api/keys";

export const dynamic = "force-dynamic";
