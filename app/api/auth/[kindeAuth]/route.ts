import { prepareKindeEnv } from "@/lib/auth/kinde";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Kinde's OAuth endpoints (login, logout, kinde_callback, …), served by
 * @kinde-oss/kinde-auth-nextjs when operators sign in with Kinde; 404 when
 * they do not. After Kinde, the browser lands on /api/session/kinde.
 */
export const GET = route(async (request: Request, context: { params: Promise<{ kindeAuth: string }> }) => {
  const { config } = getRuntime();
  if (config.operatorSignIn !== "kinde") throw new AppError("not_found", "Kinde sign-in is not configured here.");
  prepareKindeEnv();
  const { handleAuth } = await import("@kinde-oss/kinde-auth-nextjs/server");
  return (await handleAuth()(request, context)) as Response;
});
