// The gate's handlers live in lib/api/gate.ts (one set of handlers for Next.js and for the production server).
export { reserve as POST } from "@/lib/api/gate";

export const dynamic = "force-dynamic";
