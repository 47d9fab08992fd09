/** Server-component side of operator sessions. */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { checkSessionCookie, SESSION_COOKIE } from "../ops/operator";
import { getRuntime } from "../runtime";

export async function hasOperatorSession(): Promise<boolean> {
  const jar = await cookies();
  return checkSessionCookie(getRuntime().operator, jar.get(SESSION_COOKIE)?.value, Date.now());
}

/** For dashboard pages and server actions: sends a visitor without a session to sign in. */
export async function requireOperatorSession(): Promise<void> {
  if (!(await hasOperatorSession())) redirect("/signin");
}
