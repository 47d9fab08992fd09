// Short links: the handlers live in lib/links/redirect.ts (one set of handlers for Next.js and for the production server).
export { handleRedirect as GET, handleRedirectHead as HEAD } from "@/lib/links/redirect";

export const dynamic = "force-dynamic";
