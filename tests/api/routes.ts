/**
 * The route table the isolation and fuzz suites are generated from.
 *
 * Every exported method of every app/api/**\/route.ts must have an entry here
 * (tests/api/isolation.test.ts discovers them and fails on a missing one).
 * An entry says who may call the route and how to call it:
 *  - access "public": anyone (with the reason it is safe);
 *  - access "operator": the operator only; an account's key or member gets 403;
 *  - access "account": an account's key or member, for that account only.
 *    `call(world, whose)` builds the request for A's own resource ("own"),
 *    B's resource ("other") and one that does not exist ("missing"); with A's
 *    credentials, "other" must answer exactly like "missing" (404).
 * and how to send it malformed input (`fuzz`): the valid shape, each field's
 * kind (so the fuzzer can make a value that is surely invalid), and which
 * fields are required.
 *
 * When a part adds a route, it adds its entry here, and any fixtures its
 * "other" call needs to `worldSteps` (B's job, link, event…).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as jobsRoute from "../../app/api/v1/jobs/route";
import * as linksRoute from "../../app/api/v1/links/route";
import * as accountsScripts from "../../lib/accounts/scripts";
import * as inbox from "../../lib/inbox/scripts";
import * as jwksRoute from "../../app/api/standin/.well-known/jwks/route";
import { newToken, sha256Hex } from "../../lib/auth/tokens";
import * as keys from "../../lib/keys/scripts";
import { generateApiKey } from "../../lib/keys/token";
import * as people from "../../lib/people/scripts";
import { getRuntime } from "../../lib/runtime";
import type { ApiHarness } from "./harness";
import { memberOf, setupOperator } from "./people";

export type Kind = (
  | { kind: "text"; max: number; min?: number; /** the field is trimmed first, so blanks are empty */ trims?: true }
  | { kind: "int"; min: number; max: number }
  | { kind: "id"; prefix: string }
  | { kind: "email" }
  | { kind: "token" }
  | { kind: "password" }
  | { kind: "enum"; values: string[] }
  | { kind: "date" }
  /** A code such as a feature: letters, digits, "_", "-", "." */
  | { kind: "code"; max: number }
  /** An event time: RFC 3339 text or epoch seconds/milliseconds, within the intake's replay window. */
  | { kind: "time" }
  /** A JSON object of anything (a webhook's `data`). */
  | { kind: "record" }
  /** An HTTP header value the route reads (printable characters, bounded). */
  | { kind: "header"; max: number }
) & { nullable?: true };

export interface Party {
  accountId: string;
  key: string;
  keyId: string;
  memberCookie: string;
}

export interface World {
  a: Party;
  b: Party;
  operatorCookie: string;
  /** A live member invite (for fuzzing the accept form with a link that exists). */
  inviteToken: string;
  /** Ids a part's fixtures add: world.extra["b.jobId"], … */
  extra: Record<string, string>;
}

export type Whose = "own" | "other" | "missing";

export interface Call {
  path: string;
  params?: Record<string, string>;
  body?: unknown;
}

export interface Fuzz {
  /** A valid target: path and params. */
  target(world: World): { path: string; params?: Record<string, string> };
  /** Whose credentials the malformed requests carry. */
  auth: "operator" | "account" | "none";
  /**
   * A JSON or form body: its valid shape, each field's kind, the required ones. "jwt": the body is a token
   * the fuzzer signs with the stand-in's key (the one the intake trusts) from claims shaped like `valid`, so
   * each claim is mutated on its own behind a good signature (extra claims are not sent: a Kinde event may
   * carry claims the app does not read, and a signed event with one is a real event).
   */
  body?: { encoding: "json" | "form" | "jwt"; valid(world: World): Record<string, unknown>; fields: Record<string, Kind>; required: string[] };
  /** Headers the route reads: the valid values sent with every request, and each one's kind (mutated one at a time). */
  headers?: { valid: Record<string, string>; fields: Record<string, Kind> };
  /** Query parameters (GET): each one's kind. */
  query?: Record<string, Kind>;
  /** Path parameters the fuzzer may replace with garbage. */
  params?: string[];
  /** A route that takes no input cannot get malformed input: the statuses it may answer. */
  noInput?: number[];
}

export type Entry = ({ access: "public"; why: string } | { access: "operator" } | { access: "account"; call(world: World, whose: Whose): Call }) & { fuzz: Fuzz };

const MISSING_ACCOUNT = "acct_0000000000000000000z";
const MISSING_JOB = "job_0000000000000000000z";
const MISSING_KEY = "key_0000000000000000000z";
const accountOf = (w: World, whose: Whose) => (whose === "own" ? w.a.accountId : whose === "other" ? w.b.accountId : MISSING_ACCOUNT);
const linkOf = (w: World, whose: Whose) => (whose === "own" ? w.extra["a.linkCode"]! : whose === "other" ? w.extra["b.linkCode"]! : "zzzzzzz9");
const eventOf = (w: World, whose: Whose) => (whose === "own" ? w.extra["a.eventId"]! : whose === "other" ? w.extra["b.eventId"]! : "evt_0000000000000000000z");
const jobOf = (w: World, whose: Whose) => (whose === "own" ? w.extra["a.jobId"]! : whose === "other" ? w.extra["b.jobId"]! : MISSING_JOB);
const UNITS = { kind: "int", min: 0, max: 1_000_000_000_000 } as const satisfies Kind;
const jobStep = (path: string, body: Record<string, string | number | null>, fields: Record<string, Kind>, required: string[]): Entry => ({
  access: "account",
  call: (w, whose) => ({ path: `/api/v1/jobs/${jobOf(w, whose)}${path}`, params: { id: jobOf(w, whose) }, body }),
  fuzz: {
    target: (w) => ({ path: `/api/v1/jobs/${w.extra["a.fuzzJobId"]}${path}`, params: { id: w.extra["a.fuzzJobId"]! } }),
    auth: "account",
    params: ["id"],
    body: { encoding: "json", valid: () => body, fields, required },
  },
});

const ACCOUNT_BODY = {
  name: { kind: "text", max: 100, min: 1, trims: true },
  kindeCustomerId: { kind: "id", prefix: "customer" },
  plan: { kind: "enum", values: ["free", "pro"] },
} satisfies Record<string, Kind>;

export const routes: Record<string, Entry> = {
  "GET /api/health": { access: "public", why: "engine and schedule state; no account data", fuzz: { target: () => ({ path: "/api/health" }), auth: "none", noInput: [200] } },

  "POST /api/session": {
    access: "public",
    why: "sign-in form",
    fuzz: {
      target: () => ({ path: "/api/session" }),
      auth: "none",
      body: { encoding: "form", valid: () => ({ email: "ana@example.com", password: "x" }), fields: { email: { kind: "email" }, password: { kind: "password" } }, required: ["email", "password"] },
    },
  },
  "DELETE /api/session": { access: "public", why: "sign-out: ends the caller's own session", fuzz: { target: () => ({ path: "/api/session" }), auth: "none", noInput: [204, 403] } },
  "POST /api/session/signout": { access: "public", why: "sign-out form", fuzz: { target: () => ({ path: "/api/session/signout" }), auth: "none", noInput: [303, 403] } },
  "GET /api/session/kinde": { access: "public", why: "Kinde's return to us; 404 unless Kinde sign-in is on", fuzz: { target: () => ({ path: "/api/session/kinde" }), auth: "none", noInput: [404] } },
  "GET /api/auth/[kindeAuth]": {
    access: "public",
    why: "Kinde's OAuth endpoints; 404 unless Kinde sign-in is on",
    fuzz: { target: () => ({ path: "/api/auth/login", params: { kindeAuth: "login" } }), auth: "none", params: ["kindeAuth"], noInput: [404] },
  },
  "POST /api/setup": {
    access: "public",
    why: "first-run form; works once, with the setup token",
    fuzz: {
      target: () => ({ path: "/api/setup" }),
      auth: "none",
      body: {
        encoding: "form",
        valid: () => ({ setupToken: "tb_setup_aaaaaaaaaaaaaaaaaaaaaaaa", email: "eve@example.com", name: "Eve", password: "a long enough password" }),
        fields: { setupToken: { kind: "token" }, email: { kind: "email" }, name: { kind: "text", max: 100, min: 1, trims: true }, password: { kind: "password" } },
        required: ["setupToken", "email", "name", "password"],
      },
    },
  },
  "POST /api/invites/accept": {
    access: "public",
    why: "invite form; works once, with the link's token",
    fuzz: {
      target: () => ({ path: "/api/invites/accept" }),
      auth: "none",
      body: {
        encoding: "form",
        valid: (w) => ({ token: w.inviteToken, name: "Fuzz", password: "a long enough password" }),
        fields: { token: { kind: "token" }, name: { kind: "text", max: 100, min: 1, trims: true }, password: { kind: "password" } },
        required: ["token", "name", "password"],
      },
    },
  },

  "POST /api/v1/accounts": {
    access: "operator",
    fuzz: { target: () => ({ path: "/api/v1/accounts" }), auth: "operator", body: { encoding: "json", valid: () => ({ name: "Fuzz" }), fields: ACCOUNT_BODY, required: ["name"] } },
  },
  "GET /api/v1/accounts": {
    access: "operator",
    fuzz: { target: () => ({ path: "/api/v1/accounts" }), auth: "operator", query: { limit: { kind: "int", min: 1, max: 200 }, after: { kind: "id", prefix: "acct" } } },
  },
  "GET /api/v1/accounts/[id]": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/accounts/${accountOf(w, whose)}`, params: { id: accountOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}`, params: { id: w.a.accountId } }), auth: "account", params: ["id"] },
  },
  "PATCH /api/v1/accounts/[id]": {
    access: "operator",
    fuzz: {
      target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}`, params: { id: w.a.accountId } }),
      auth: "operator",
      params: ["id"],
      body: {
        encoding: "json",
        valid: () => ({ name: "Renamed" }),
        fields: { name: ACCOUNT_BODY.name, kindeCustomerId: { ...ACCOUNT_BODY.kindeCustomerId, nullable: true }, cycleAnchorMs: { kind: "date", nullable: true } },
        required: [],
      },
    },
  },
  "GET /api/v1/accounts/[id]/keys": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/accounts/${accountOf(w, whose)}/keys`, params: { id: accountOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}/keys`, params: { id: w.a.accountId } }), auth: "account", params: ["id"] },
  },
  "POST /api/v1/accounts/[id]/keys": {
    access: "operator",
    fuzz: {
      target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}/keys`, params: { id: w.a.accountId } }),
      auth: "operator",
      params: ["id"],
      body: { encoding: "json", valid: () => ({ ratePerMinute: 60 }), fields: { ratePerMinute: { kind: "int", min: 1, max: 100_000 } }, required: [] },
    },
  },
  "DELETE /api/v1/accounts/[id]/keys/[keyId]": {
    access: "operator",
    fuzz: {
      target: () => ({ path: `/api/v1/accounts/${MISSING_ACCOUNT}/keys/${MISSING_KEY}`, params: { id: MISSING_ACCOUNT, keyId: MISSING_KEY } }),
      auth: "operator",
      params: ["id", "keyId"],
      noInput: [404],
    },
  },
  // ---- the gate (lib/api/gate.ts)
  "POST /api/v1/jobs": {
    access: "account",
    call: (w, whose) => ({ path: "/api/v1/jobs", body: { key: `iso-${whose}-${Math.random()}`, estimate: 10, accountId: accountOf(w, whose) } }),
    fuzz: {
      target: () => ({ path: "/api/v1/jobs" }),
      auth: "account",
      body: {
        encoding: "json",
        valid: () => ({ key: "fuzz-key", estimate: 10 }),
        fields: { key: { kind: "text", max: 200, min: 1 }, estimate: { kind: "int", min: 1, max: 1_000_000_000_000 }, feature: { kind: "code", max: 40 } },
        required: ["key", "estimate"],
      },
    },
  },
  "GET /api/v1/jobs/[id]": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/jobs/${jobOf(w, whose)}`, params: { id: jobOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/jobs/${w.extra["a.jobId"]}`, params: { id: w.extra["a.jobId"]! } }), auth: "account", params: ["id"] },
  },
  "POST /api/v1/jobs/[id]/charge": jobStep("/charge", { tokens: 1 }, { tokens: UNITS, step: { kind: "int", min: 1, max: Number.MAX_SAFE_INTEGER } }, ["tokens"]),
  "POST /api/v1/jobs/[id]/extend": jobStep("/extend", { tokens: 1 }, { tokens: { ...UNITS, min: 1 }, step: { kind: "int", min: 1, max: Number.MAX_SAFE_INTEGER } }, ["tokens"]),
  "POST /api/v1/jobs/[id]/settle": jobStep("/settle", { outcome: "completed" }, { used: UNITS, outcome: { kind: "enum", values: ["completed", "failed", "cancelled"] } }, ["outcome"]),
  "GET /api/v1/accounts/[id]/budget": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/accounts/${accountOf(w, whose)}/budget`, params: { id: accountOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}/budget`, params: { id: w.a.accountId } }), auth: "account", params: ["id"], query: { feature: { kind: "code", max: 40 } } },
  },

  // ---- the provider (operator tools)
  "GET /api/standin/.well-known/jwks": { access: "public", why: "the stand-in's public signing keys", fuzz: { target: () => ({ path: "/api/standin/.well-known/jwks" }), auth: "none", noInput: [200] } },
  "GET /api/standin/.well-known/jwks.json": { access: "public", why: "the stand-in's public signing keys", fuzz: { target: () => ({ path: "/api/standin/.well-known/jwks.json" }), auth: "none", noInput: [200] } },
  "GET /api/v1/provider/accounts/[id]/check": {
    access: "operator",
    fuzz: { target: (w) => ({ path: `/api/v1/provider/accounts/${w.a.accountId}/check`, params: { id: w.a.accountId } }), auth: "operator", params: ["id"], query: { features: { kind: "code", max: 100 } } },
  },
  "GET /api/v1/standin/accounts/[id]/limits": {
    access: "operator",
    fuzz: { target: (w) => ({ path: `/api/v1/standin/accounts/${w.a.accountId}/limits`, params: { id: w.a.accountId } }), auth: "operator", params: ["id"] },
  },
  "PUT /api/v1/standin/accounts/[id]/limits": {
    access: "operator",
    fuzz: {
      target: (w) => ({ path: `/api/v1/standin/accounts/${w.a.accountId}/limits`, params: { id: w.a.accountId } }),
      auth: "operator",
      params: ["id"],
      body: { encoding: "json", valid: () => ({ featureCode: "tokens", limitMax: 250 }), fields: { featureCode: { kind: "code", max: 100 }, limitMax: { kind: "int", min: 0, max: Number.MAX_SAFE_INTEGER, nullable: true } }, required: ["featureCode", "limitMax"] },
    },
  },
  "GET /api/v1/standin/faults": { access: "operator", fuzz: { target: () => ({ path: "/api/v1/standin/faults" }), auth: "operator" } },
  "POST /api/v1/standin/faults": {
    access: "operator",
    fuzz: {
      target: () => ({ path: "/api/v1/standin/faults" }),
      auth: "operator",
      body: { encoding: "json", valid: () => ({ kind: "fail_writes", count: 3 }), fields: { kind: { kind: "enum", values: ["fail_writes", "rate_limit", "drift", "hang", "deny_scope"] }, count: { kind: "int", min: 1, max: 1_000_000 } }, required: ["kind", "count"] },
    },
  },
  "POST /api/v1/standin/webhooks": {
    access: "operator",
    fuzz: {
      target: () => ({ path: "/api/v1/standin/webhooks" }),
      auth: "operator",
      body: {
        encoding: "json",
        valid: (w) => ({ type: "customer.plan_changed", accountId: w.a.accountId, planCode: "pro" }),
        fields: { type: { kind: "enum", values: ["customer.plan_changed"] }, accountId: { kind: "id", prefix: "acct" }, planCode: { kind: "enum", values: ["free", "pro"] }, copies: { kind: "int", min: 1, max: 10 }, intakeUrl: { kind: "token" } },
        required: ["type", "accountId"],
      },
    },
  },

  // ---- liveness, webhooks (public by design; the intake verifies the signature before storing anything)
  "GET /api/ping": { access: "public", why: "liveness; no data", fuzz: { target: () => ({ path: "/api/ping" }), auth: "none", noInput: [200] } },
  "POST /api/ping": { access: "public", why: "liveness; no data", fuzz: { target: () => ({ path: "/api/ping" }), auth: "none", noInput: [200] } },
  "POST /api/webhooks/kinde": {
    access: "public",
    why: "Kinde's webhook intake: a signed JWT, verified before anything is stored",
    fuzz: {
      target: () => ({ path: "/api/webhooks/kinde" }),
      auth: "none",
      body: {
        encoding: "jwt",
        valid: () => ({ type: "customer.payment_succeeded", event_id: "event_fuzz", event_timestamp: new Date().toISOString(), data: { customer_id: "customer_fuzz_nobody" } }),
        fields: { type: { kind: "text", max: 100, min: 1 }, event_id: { kind: "text", max: 200, min: 1 }, event_timestamp: { kind: "time" }, data: { kind: "record" } },
        required: ["type", "event_timestamp"],
      },
      headers: { valid: { "webhook-id": "wh_fuzz" }, fields: { "webhook-id": { kind: "header", max: 200 } } },
    },
  },
  "POST /api/webhooks/kinde/naive": { access: "public", why: "the Engine Room's apply-on-arrival intake; verified like the real one", fuzz: { target: () => ({ path: "/api/webhooks/kinde/naive" }), auth: "none", noInput: [] } },

  // ---- the meter
  "GET /api/v1/links": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/links?accountId=${accountOf(w, whose)}` }),
    fuzz: { target: () => ({ path: "/api/v1/links" }), auth: "account", query: { accountId: { kind: "id", prefix: "acct" } } },
  },
  "POST /api/v1/links": {
    access: "account",
    call: (w, whose) => ({ path: "/api/v1/links", body: { destination: "https://example.com/iso", accountId: accountOf(w, whose) } }),
    fuzz: { target: () => ({ path: "/api/v1/links" }), auth: "account", body: { encoding: "json", valid: () => ({ destination: "https://example.com/fuzz" }), fields: { destination: { kind: "token" }, accountId: { kind: "id", prefix: "acct" } }, required: ["destination"] } },
  },
  "GET /api/v1/links/[code]": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/links/${linkOf(w, whose)}`, params: { code: linkOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/links/${w.extra["a.linkCode"]}`, params: { code: w.extra["a.linkCode"]! } }), auth: "account", params: ["code"] },
  },
  "GET /api/v1/links/[code]/qr": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/links/${linkOf(w, whose)}/qr`, params: { code: linkOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/links/${w.extra["a.linkCode"]}/qr`, params: { code: w.extra["a.linkCode"]! } }), auth: "account", params: ["code"], query: { format: { kind: "enum", values: ["svg", "png"] } } },
  },
  "POST /api/v1/accounts/[id]/connect": {
    access: "operator",
    fuzz: {
      target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}/connect`, params: { id: w.a.accountId } }),
      auth: "operator",
      params: ["id"],
      body: { encoding: "json", valid: () => ({ agreementStart: 0 }), fields: { agreementStart: { kind: "date", nullable: true } }, required: [] },
    },
  },
  "POST /api/v1/accounts/[id]/reconcile": { access: "operator", fuzz: { target: (w) => ({ path: `/api/v1/accounts/${w.a.accountId}/reconcile`, params: { id: w.a.accountId } }), auth: "operator", params: ["id"], noInput: [] } },
  "POST /api/v1/meter/report": { access: "operator", fuzz: { target: () => ({ path: "/api/v1/meter/report" }), auth: "operator", noInput: [] } },
  "POST /api/v1/usage/corrections": {
    access: "operator",
    fuzz: {
      target: () => ({ path: "/api/v1/usage/corrections" }),
      auth: "operator",
      body: {
        encoding: "json",
        // A row that does not exist: even this valid shape would write nothing (404).
        valid: () => ({ entryKey: "fuzz-no-such-row", reason: "fuzz" }),
        fields: { entryKey: { kind: "text", max: 200, min: 1 }, units: { kind: "int", min: -1_000_000_000, max: -1 }, reason: { kind: "text", max: 500, min: 1, trims: true } },
        required: ["entryKey", "reason"],
      },
    },
  },

  // ---- the inbox
  "GET /api/v1/inbox/events": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/inbox/events?accountId=${accountOf(w, whose)}` }),
    fuzz: { target: () => ({ path: "/api/v1/inbox/events" }), auth: "account", query: { limit: { kind: "int", min: 1, max: 200 }, status: { kind: "enum", values: ["received", "applied"] } } },
  },
  "GET /api/v1/inbox/events/[id]": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/inbox/events/${eventOf(w, whose)}`, params: { id: eventOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/inbox/events/${w.extra["a.eventId"]}`, params: { id: w.extra["a.eventId"]! } }), auth: "account", params: ["id"] },
  },
  "POST /api/v1/inbox/events/[id]/replay": {
    access: "account",
    call: (w, whose) => ({ path: `/api/v1/inbox/events/${eventOf(w, whose)}/replay`, params: { id: eventOf(w, whose) } }),
    fuzz: { target: (w) => ({ path: `/api/v1/inbox/events/${w.extra["a.eventId"]}/replay`, params: { id: w.extra["a.eventId"]! } }), auth: "account", params: ["id"], noInput: [] },
  },
  "POST /api/v1/inbox/replay": {
    access: "operator",
    fuzz: {
      target: () => ({ path: "/api/v1/inbox/replay" }),
      auth: "operator",
      body: {
        encoding: "json",
        // A window in 1970: even this valid shape would replay nothing.
        valid: () => ({ fromMs: 0, toMs: 1 }),
        fields: {
          dead: { kind: "enum", values: ["true"] },
          fromMs: { kind: "int", min: 0, max: 8.64e15 },
          toMs: { kind: "int", min: 0, max: 8.64e15 },
          limit: { kind: "int", min: 1, max: 500 },
        },
        required: ["fromMs", "toMs"],
      },
    },
  },

  "GET /api/v1/audit": {
    access: "operator",
    fuzz: { target: () => ({ path: "/api/v1/audit" }), auth: "operator", query: { limit: { kind: "int", min: 1, max: 200 }, accountId: { kind: "id", prefix: "acct" }, before: { kind: "token" } } },
  },
};

/** Fixtures beyond the two accounts; each part appends what its "other" calls need (B's job, link, event). */
export const worldSteps: ((world: World, api: ApiHarness) => Promise<void>)[] = [];

async function party(api: ApiHarness, name: string): Promise<Party> {
  const opened = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name } });
  const { account, apiKey } = opened.body as { account: { id: string }; apiKey: { id: string; key: string } };
  const memberCookie = await memberOf(api, account.id, `member@${name.toLowerCase()}.test`);
  return { accountId: account.id, key: apiKey.key, keyId: apiKey.id, memberCookie };
}

/** Two accounts (A and B) with a key and a signed-in member each, an operator session, and each part's fixtures. */
export async function buildWorld(api: ApiHarness): Promise<World> {
  const operatorCookie = await setupOperator(api);
  const a = await party(api, "A");
  const b = await party(api, "B");
  // The fuzz sends thousands of requests with A's key; give it room so the rate limit is not what answers.
  const engine = getRuntime().engine;
  const made = generateApiKey();
  const fast = await engine.run(keys.create, { accountId: a.accountId, hash: made.hash, prefix: made.prefix, last4: made.last4, ratePerMinute: 100_000, actor: { kind: "system", id: null, label: "test" } });
  a.key = made.token;
  a.keyId = fast.id;
  const inviteToken = newToken();
  await engine.run(people.invite, { role: "member", accountId: a.accountId, email: "unused@a.test", tokenHash: sha256Hex(inviteToken), actor: { kind: "system", id: null, label: "test" } });
  const world: World = { a, b, operatorCookie, inviteToken, extra: {} };
  // The meter: a link each for A and B.
  for (const [name, party] of [["a.linkCode", a], ["b.linkCode", b]] as const) {
    const made = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: `https://example.com/${name}` }, token: party.key });
    if (made.status !== 201) throw new Error(`link for ${name} answered ${made.status}: ${JSON.stringify(made.body)}`);
    world.extra[name] = ((made.body as { link: { code: string } }).link ?? (made.body as { code: string })).code;
  }
  // The inbox: a stored billing event each for A and B (by their Kinde customer ids).
  for (const [name, party] of [["a.eventId", a], ["b.eventId", b]] as const) {
    await engine.run(accountsScripts.update, { id: party.accountId, kindeCustomerId: `customer_${name[0]}`, actor: { kind: "system", id: null, label: "test" } });
    const stored = await engine.run(inbox.receive, {
      source: "kinde",
      dedupeKey: `wh_${name}`,
      webhookId: `wh_${name}`,
      eventId: `event_${name}`,
      type: "customer.payment_succeeded",
      payload: JSON.stringify({ type: "customer.payment_succeeded", data: { customer_id: `customer_${name[0]}` } }),
      occurredAtMs: Date.now(),
      customerId: `customer_${name[0]}`,
      sizeBytes: 100,
    });
    world.extra[name] = stored.inboxEventId;
  }
  // The stand-in makes its signing key on the first read of its key set; make it now, not during the fuzz.
  await api.call(jwksRoute.GET, { path: "/api/standin/.well-known/jwks", token: null });
  // The gate: a running job each for A and B (isolation), and one for A that only the fuzzer touches.
  for (const [name, party] of [["a.jobId", a], ["b.jobId", b], ["a.fuzzJobId", a]] as const) {
    const made = await api.call(jobsRoute.POST, { method: "POST", path: "/api/v1/jobs", body: { key: name, estimate: 1000 }, token: party.key });
    if (made.status !== 201) throw new Error(`reserve for ${name} answered ${made.status}: ${JSON.stringify(made.body)}`);
    world.extra[name] = (made.body as { id: string }).id;
  }
  for (const step of worldSteps) await step(world, api);
  return world;
}

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Every route file's exported methods, as "METHOD /api/…" keys. Found by
 * walking app/api on disk (dot folders such as .well-known included: a glob
 * would skip them).
 */
export async function discoverRoutes(): Promise<{ key: string; handler: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> }[]> {
  const appDir = path.resolve("app");
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : d.name === "route.ts" ? [path.join(dir, d.name)] : []));
  const found = [];
  for (const file of walk(path.join(appDir, "api"))) {
    const pattern = path.relative(appDir, path.dirname(file)).split(path.sep).join("/");
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
    for (const method of METHODS) {
      if (typeof mod[method] === "function") found.push({ key: `${method} /${pattern}`, handler: mod[method] as never });
    }
  }
  return found.sort((x, y) => x.key.localeCompare(y.key));
}
