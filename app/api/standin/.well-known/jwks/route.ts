import { json, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** The stand-in's webhook signing keys (public halves), as Kinde publishes its own at /.well-known/jwks. */
export const GET = route(async () => json(await getRuntime().standin.jwks(), 200, { "cache-control": "public, max-age=300" }));
