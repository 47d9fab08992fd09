/** Helpers for API tests that sign people in through the real routes. */
import fs from "node:fs";
import path from "node:path";
import * as setupRoute from "../../app/api/setup/route";
import * as acceptRoute from "../../app/api/invites/accept/route";
import * as sessionRoute from "../../app/api/session/route";
import { newToken, sha256Hex } from "../../lib/auth/tokens";
import * as people from "../../lib/people/scripts";
import { getRuntime } from "../../lib/runtime";
import type { ApiHarness } from "./harness";

export const SAME_ORIGIN = { host: "127.0.0.1", origin: "http://127.0.0.1" };
export const PASSWORD = "correct horse battery staple";

export function form(fields: Record<string, string>): { rawBody: string; headers: Record<string, string> } {
  return { rawBody: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN } };
}

/** The session cookie's value from a Set-Cookie header, or null. */
export function sessionCookieOf(headers: Headers): string | null {
  const match = /tollbooth_session=([^;]*)/.exec(headers.get("set-cookie") ?? "");
  return match && match[1] ? match[1] : null;
}

export function cookieHeader(value: string): Record<string, string> {
  return { cookie: `tollbooth_session=${value}` };
}

export function setupToken(api: ApiHarness): string {
  return fs.readFileSync(path.join(api.dataDir, "setup-token"), "utf8").trim();
}

/** Makes the first operator through /api/setup; returns their session cookie. */
export async function setupOperator(api: ApiHarness, email = "ana@example.com"): Promise<string> {
  const answer = await api.call(setupRoute.POST, { method: "POST", path: "/api/setup", token: null, ...form({ setupToken: setupToken(api), email, name: "Ana", password: PASSWORD }) });
  if (answer.status !== 303) throw new Error(`setup answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return sessionCookieOf(answer.headers)!;
}

/** Invites and signs up a member of `accountId` through the invite route; returns their session cookie. */
export async function memberOf(api: ApiHarness, accountId: string, email: string): Promise<string> {
  const token = newToken();
  await getRuntime().engine.run(people.invite, { role: "member", accountId, email, tokenHash: sha256Hex(token), actor: { kind: "system", id: null, label: "test" } });
  const answer = await api.call(acceptRoute.POST, { method: "POST", path: "/api/invites/accept", token: null, ...form({ token, name: email.split("@")[0]!, password: PASSWORD }) });
  if (answer.status !== 303) throw new Error(`accept answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return sessionCookieOf(answer.headers)!;
}

export async function signIn(api: ApiHarness, email: string, password: string) {
  return api.call(sessionRoute.POST, { method: "POST", path: "/api/session", token: null, ...form({ email, password }) });
}
