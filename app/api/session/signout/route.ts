import { requireSameOrigin, route } from "@/lib/http/api";
import { SESSION_COOKIE } from "@/lib/ops/operator";

export const dynamic = "force-dynamic";

/** Sign out from the dashboard's form: clears the session cookie. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  return new Response(null, {
    status: 303,
    headers: { location: "/signin", "set-cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` },
  });
});
