// The handler lives in lib/api/health.ts (one set of handlers for Next.js and for the production server).
export { health as GET } from "@/lib/api/health";

export const dynamic = "force-dynamic";
