// The short-link API's handlers live in lib/api/links.ts (one set of handlers for Next.js and for the production server).
export { linkQr as GET } from "@/lib/api/links";

export const dynamic = "force-dynamic";
