/** Short links: the handler lives in lib/links/redirect.ts so a lighter server can serve the same function. */
export { handleRedirect as GET, handleRedirectHead as HEAD } from "@/lib/links/redirect";

export const dynamic = "force-dynamic";
