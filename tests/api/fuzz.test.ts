/**
 * Hostile input, generated from the route table (tests/api/routes.ts): at
 * least 10,000 malformed requests across every route — bad JSON, wrong types,
 * missing and extra fields, negative, fractional, huge and string numbers,
 * NaN and Infinity, very long strings, odd unicode, __proto__ and constructor
 * keys, oversized bodies, wrong content types, garbage path parameters and
 * bearer tokens. Every answer must be a 4xx with `{ error: { code, message } }`
 * (a field's message names the field), never a 5xx, and the row count of
 * every table must be the same afterwards. Routes that take no input cannot
 * be sent malformed input; they get the same hostile requests and must answer
 * one of their listed statuses, never a 5xx, and write nothing.
 */
import fc from "fast-check";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { getRuntime } from "../../lib/runtime";
import { startApi, type ApiHarness } from "./harness";
import { cookieHeader, SAME_ORIGIN } from "./people";
import { buildWorld, discoverRoutes, routes, type Entry, type Kind, type World } from "./routes";

const TOTAL_REQUESTS_MIN = 10_000;
const discovered = await discoverRoutes();
const perRoute = Math.ceil((TOTAL_REQUESTS_MIN * 1.05) / discovered.length);

let api: ApiHarness;
let world: World;
let sent = 0;
beforeAll(async () => {
  api = await startApi();
  world = await buildWorld(api);
});
afterAll(async () => {
  await api.close();
});

function rowCounts(): Record<string, number> {
  const db = (getRuntime().engine as SqliteEngine).connections.read;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number)]));
}

/** Signs claims with the stand-in's key, the one the webhook intake trusts (the default provider). */
async function signStandin(claims: Record<string, unknown>): Promise<string> {
  const { kid, privateKey } = await getRuntime().standin.signingKey();
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid, typ: "JWT" }).sign(privateKey);
}

// ---- values that are surely invalid for a field of each kind ----

const ODD = ["\u0000", "\u202e", "\ud800", "\uffff", "𝔘𝔫𝔦", "Ω̸", "\u200b", "../../etc/passwd", "%00", "<script>alert(1)</script>", "' OR 1=1 --", "${7*7}", "\r\n"];
const odd = fc.oneof(fc.constantFrom(...ODD), fc.string({ unit: "binary", maxLength: 20 }));
/** Not a string and not a number: wrong for every field. */
const neither = fc.oneof(fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant({}), fc.constant({ $gt: "" }));
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
/** Longer than `over` however it is counted: zod counts code points, so each repeated character is one. */
const longString = (over: number) => fc.tuple(fc.constantFrom("x", "é", "𝔘", "\u202e", "Ω", "\u0000", "😀"), fc.integer({ min: over + 1, max: over + 3000 })).map(([c, n]) => c.repeat(n));
/** A string that contains a character no id, token or code allows. */
const withBadChar = fc.tuple(fc.string({ maxLength: 30 }), fc.constantFrom("!", " ", "/", "\u202e", "𝔘", "\u0000", "@", "é")).map(([s, c]) => `${s}${c}`);

/** A signed event time that cannot be used: unparseable, not positive, or outside the replay window (old or ahead). */
const badTime = fc.oneof(
  withBadChar,
  fc.constantFrom("2026-13-01T00:00:00Z", "2026-02-30T25:00:00Z", "yesterday", "2001-01-01T00:00:00Z", "2999-01-01T00:00:00Z", "", "9".repeat(80)),
  fc.constantFrom(0, -1, -0.5, 1e9, 1e12, 1e13, 1e300, Number.NaN, -1e300),
);

function invalidValue(kind: Kind, encoding: "json" | "form" | "jwt"): fc.Arbitrary<unknown> {
  const strings: fc.Arbitrary<string>[] = [];
  if (kind.kind === "time") return fc.oneof(badTime, neither, fc.constant(null));
  if (kind.kind === "record") return fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(null));
  if (kind.kind === "header") {
    // What a client can put in a header (fetch refuses the rest) and the route must still refuse.
    return fc.oneof(fc.integer({ min: kind.max + 1, max: kind.max + 2000 }).map((n) => "x".repeat(n)), fc.constantFrom("a b", "a\tb", "ü", "wh_\u00ff", "x y z"));
  }
  const numeric = kind.kind === "int" || kind.kind === "date";
  // null is wrong unless the field takes null; a number is wrong for a text field.
  const others: fc.Arbitrary<unknown>[] = [neither, ...(kind.nullable ? [] : [fc.constant(null)]), ...(numeric ? [] : [fc.integer(), fc.double()])];
  switch (kind.kind) {
    case "text":
      strings.push(longString(kind.max));
      if ((kind.min ?? 0) > 0) strings.push(kind.trims ? fc.constantFrom("", "   ", "\t\n") : fc.constant(""));
      break;
    case "int":
      others.push(
        fc.integer({ min: Math.min(-1e9, kind.min - 1e9), max: kind.min - 1 }),
        fc.integer({ min: kind.max + 1, max: 2 ** 53 }),
        fc.double({ min: kind.min, max: kind.max, noNaN: true }).filter((d) => !Number.isInteger(d)),
        fc.constantFrom(1e300, -1e300, 2 ** 53 + 2, -0.5),
        fc.constantFrom("12", "NaN", "Infinity", "-1", "1e3", "0x10", ""),
      );
      strings.push(fc.constantFrom("NaN", "Infinity", "-1", "1.5", "1e999", "abc", "", "0x10", "9".repeat(400)));
      break;
    case "date":
      others.push(fc.integer({ min: -1e12, max: -1 }), fc.double({ min: 1, max: 1e12, noNaN: true }).filter((d) => !Number.isInteger(d)), fc.constantFrom(1e300, 9e15, "2026-01-01", "NaN", true));
      break;
    case "id":
      strings.push(withBadChar, longString(100), fc.constant(""), fc.constant(`${kind.prefix}_${"A".repeat(20)}!`));
      break;
    case "email":
      strings.push(fc.string({ maxLength: 40 }).filter((s) => !s.includes("@")), fc.constantFrom("a@b", "@x.io", "a@", "a b@c.io", "a@b .io"), longString(254).map((s) => `${s}@x.io`));
      break;
    case "code":
      strings.push(withBadChar, longString(kind.max), fc.constant(""));
      break;
    case "token":
      strings.push(withBadChar, fc.string({ maxLength: 19 }).map((s) => s.replace(/[^A-Za-z0-9_-]/g, "")), longString(200));
      break;
    case "password":
      strings.push(fc.constant(""), longString(200));
      break;
    case "enum":
      strings.push(withBadChar.filter((s) => !kind.values.includes(s)), fc.constantFrom(...kind.values.map((v) => `${v.toUpperCase()}!`)));
      break;
  }
  if (strings.length === 0) strings.push(withBadChar);
  const stringArb = fc.oneof(...strings);
  return encoding === "form" ? stringArb : fc.oneof(stringArb, ...others);
}

// ---- one malformed request ----

interface Built {
  what: string;
  method: string;
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  rawBody?: string;
  /** Claims to sign with the stand-in's key: the body is that token (a "jwt" body). */
  sign?: Record<string, unknown>;
  /** The field the message must name, when the mutation broke one field. */
  field?: string;
}

const EXTRA_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__defineGetter__", "$where", "𝔘", ""];

function encode(fields: Record<string, unknown>, encoding: "json" | "form" | "jwt", extra?: [string, unknown]): string {
  if (encoding === "form") {
    const params = new URLSearchParams();
    if (extra) params.append(extra[0], String(extra[1]));
    for (const [k, v] of Object.entries(fields)) params.append(k, String(v));
    return params.toString();
  }
  const inner = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`);
  // Written by hand so "__proto__" is a real key in the text, as an attacker would send it.
  if (extra) inner.unshift(`${JSON.stringify(extra[0])}:${JSON.stringify(extra[1]) ?? "null"}`);
  return `{${inner.join(",")}}`;
}

function requestArb(key: string, entry: Entry): fc.Arbitrary<Built> {
  const [method, pattern] = key.split(" ") as [string, string];
  const { fuzz } = entry;
  const target = () => fuzz.target(world);
  const auth = (): Record<string, string> =>
    fuzz.auth === "operator" ? { authorization: `Bearer ${api.operatorToken}` } : fuzz.auth === "account" ? { authorization: `Bearer ${world.a.key}` } : {};
  const base = (what: string, extra: Partial<Built>): Built => ({ what, method, path: target().path, params: target().params ?? {}, headers: { ...auth(), ...SAME_ORIGIN }, ...extra });
  const arbs: fc.Arbitrary<Built>[] = [];
  const body = fuzz.body;
  const contentType = body?.encoding === "form" ? "application/x-www-form-urlencoded" : "application/json";
  const withBody = (what: string, rawBody: string, field?: string): Built => base(what, { rawBody, headers: { ...auth(), ...SAME_ORIGIN, "content-type": contentType }, field });

  if (body?.encoding === "jwt") {
    const valid = () => body.valid(world);
    const jwtHeaders = (): Record<string, string> => ({ ...SAME_ORIGIN, "content-type": "application/jwt", ...(fuzz.headers?.valid ?? {}) });
    const signed = (what: string, claims: Record<string, unknown>, field?: string, headers = jwtHeaders()): Built => base(what, { sign: claims, headers, field });
    arbs.push(
      fc.oneof(fc.constantFrom("", "a.b", "not a jwt", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", "eyJhbGciOiJIUzI1NiJ9.e30.c2ln"), fc.string({ maxLength: 200 })).map((raw) =>
        base("not a signed JWT", { rawBody: raw, headers: jwtHeaders() }),
      ),
    );
    if (body.required.length > 0) {
      arbs.push(
        fc.constantFrom(...body.required).map((field) => {
          const claims = { ...valid() };
          delete claims[field];
          return signed(`missing claim ${field}`, claims, field);
        }),
      );
    }
    for (const [field, kind] of Object.entries(body.fields)) {
      arbs.push(invalidValue(kind, "jwt").map((value) => signed(`bad claim ${field}`, { ...valid(), [field]: value }, field)));
    }
    for (const [name, kind] of Object.entries(fuzz.headers?.fields ?? {})) {
      arbs.push(invalidValue(kind, "jwt").map((value) => signed(`bad header ${name}`, valid(), name, { ...jwtHeaders(), [name]: String(value) })));
    }
    arbs.push(fc.constant(base("oversized body", { rawBody: "x".repeat(70_000), headers: jwtHeaders() })));
    arbs.push(
      fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "").map((type) => {
        const headers = jwtHeaders();
        if (type) headers["content-type"] = type;
        else delete headers["content-type"];
        return signed(`content-type ${type || "none"}`, valid(), undefined, headers);
      }),
    );
  } else if (body) {
    const valid = () => body.valid(world);
    if (body.encoding === "json") {
      arbs.push(fc.constantFrom("{", '{"a":', "[1,2", "nul", "{'a':1}", "\u0000", '{"name": "x",}', "{\"name\":\"\\ud800\"", "").map((raw) => withBody("bad JSON", raw)));
      arbs.push(fc.oneof(fc.array(fc.anything(), { maxLength: 3 }), fc.integer(), fc.string(), fc.constant(null), fc.boolean()).map((v) => withBody("not an object", JSON.stringify(v))));
    }
    if (body.required.length > 0) {
      arbs.push(
        fc.constantFrom(...body.required).map((field) => {
          const fields = { ...valid() };
          delete fields[field];
          return withBody(`missing ${field}`, encode(fields, body.encoding), field);
        }),
      );
    }
    for (const [field, kind] of Object.entries(body.fields)) {
      arbs.push(invalidValue(kind, body.encoding).map((value) => withBody(`bad ${field}`, encode({ ...valid(), [field]: value }, body.encoding), field)));
    }
    arbs.push(
      fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ unit: "binary", minLength: 1, maxLength: 8 }).filter((k) => !(k in body.fields))), fc.anything({ maxDepth: 2 })).map(([k, v]) =>
        withBody(`extra key ${JSON.stringify(k)}`, encode(valid(), body.encoding, [k, v === undefined ? 1 : v])),
      ),
    );
    arbs.push(
      fc.constantFrom(...Object.keys(body.fields)).map((field) =>
        withBody(`oversized body`, encode({ ...valid(), [field]: "x".repeat(body.encoding === "json" ? 70_000 : 20_000) }, body.encoding)),
      ),
    );
    arbs.push(
      fc.constantFrom("text/plain", "application/xml", "multipart/form-data; boundary=x", body.encoding === "json" ? "application/x-www-form-urlencoded" : "application/json", "").map((type) =>
        base(`content-type ${type || "none"}`, { rawBody: encode(valid(), body.encoding), headers: { ...auth(), ...SAME_ORIGIN, ...(type ? { "content-type": type } : {}) } }),
      ),
    );
  }
  if (fuzz.query) {
    for (const [name, kind] of Object.entries(fuzz.query)) {
      arbs.push(
        invalidValue(kind, "form").map((value) => {
          const t = target();
          return base(`bad query ${name}`, { path: `${t.path}?${new URLSearchParams({ [name]: String(value) })}`, field: name });
        }),
      );
    }
  }
  if (fuzz.params?.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...fuzz.params), fc.oneof(withBadChar, odd, longString(300), fc.constantFrom("acct_00000000000000000000", "..", "%2e%2e", "null", "undefined", "0"))).map(([name, value]) => {
        const t = target();
        const params = { ...(t.params ?? {}), [name]: value };
        return base(`bad path ${name}`, { params, path: pattern.replace(/\[(\w+)\]/g, (_m, p: string) => encodeURIComponent(wellFormed(params[p] ?? "x"))), ...(body ? { rawBody: encode(body.valid(world), body.encoding), headers: { ...auth(), ...SAME_ORIGIN, "content-type": contentType } } : {}) });
      }),
    );
  }
  if (fuzz.auth !== "none") {
    arbs.push(
      fc
        .oneof(
          fc.string({ unit: "binary", maxLength: 60 }).map((s) => `Bearer ${s}`),
          fc.stringMatching(/^[A-Za-z0-9_-]{32}$/).map((s) => `Bearer tb_live_${s}`),
          fc.stringMatching(/^[A-Za-z0-9_-]{32}$/).map((s) => `Bearer tb_op_${s}`),
          fc.constantFrom("Basic YWRtaW46YWRtaW4=", "Bearer", "bearer  ", "Bearer a b", `Bearer ${"x".repeat(10_000)}`),
        )
        .map((authorization) => {
          const b = base("hostile Authorization", {});
          const headers = { ...b.headers };
          delete headers.authorization;
          // A header value cannot hold every character; what fetch refuses no client can send either.
          const safe = authorization.replace(/[^\x20-\x7e]/g, "?");
          return { ...b, headers: { ...headers, authorization: safe }, ...(body ? { rawBody: encode(body.valid(world), body.encoding), headers: { ...headers, authorization: safe, "content-type": contentType } } : {}) };
        }),
      fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom(`v2.${"A".repeat(43)}.${"A".repeat(43)}`, "v1.9999999999999.abc", "x".repeat(5000))).map((cookie) => {
        const b = base("hostile session cookie", {});
        const headers = { ...b.headers };
        delete headers.authorization;
        return { ...b, headers: { ...headers, ...cookieHeader(encodeURIComponent(cookie)) } };
      }),
    );
  }
  if (arbs.length === 0 || fuzz.noInput) {
    arbs.push(
      fc.oneof(fc.string({ maxLength: 200 }), fc.constant("x".repeat(70_000))).map((raw) => base("unexpected body", { rawBody: raw, headers: { ...auth(), "content-type": "application/json", origin: "https://evil.example", host: "127.0.0.1" } })),
      fc.constant(base("cross-site", { headers: { ...auth(), origin: "https://evil.example", host: "127.0.0.1", ...cookieHeader(world.operatorCookie) } })),
    );
  }
  return fc.oneof(...arbs);
}

describe("fuzz: malformed requests to every route", () => {
  const before: { counts: Record<string, number> | null } = { counts: null };
  beforeAll(() => {
    before.counts = rowCounts();
  });

  test.each(discovered.map((r) => [r.key, r] as const))(`%s: ${perRoute} malformed requests, each a 4xx with the error shape; no rows written`, async (key, route) => {
    const entry = routes[key];
    expect(entry, `${key} has no entry in tests/api/routes.ts`).toBeDefined();
    const countsBefore = rowCounts();
    const method = key.split(" ")[0]!;
    await fc.assert(
      fc.asyncProperty(requestArb(key, entry!), async (req) => {
        sent++;
        const rawBody = req.sign ? await signStandin(req.sign) : req.rawBody;
        const answer = await api.call(route.handler, { method, path: req.path, params: req.params, headers: req.headers, token: null, ...(method === "GET" || rawBody === undefined ? {} : { rawBody }) });
        const context = `${req.what} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
        expect(answer.status, context).toBeLessThan(500);
        if (entry!.fuzz.noInput && !(answer.status >= 400)) {
          expect(entry!.fuzz.noInput, context).toContain(answer.status);
          return;
        }
        expect(answer.status, context).toBeGreaterThanOrEqual(400);
        const error = (answer.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
        expect(typeof error?.code, context).toBe("string");
        expect(typeof error?.message, context).toBe("string");
        if (req.field && answer.status === 400) expect(error!.message as string, context).toContain(req.field);
        expect(({} as Record<string, unknown>).polluted, "Object.prototype was polluted").toBeUndefined();
      }),
      { numRuns: perRoute, seed: Number(process.env.FUZZ_SEED ?? 20261021), endOnFailure: true },
    );
    expect(rowCounts()).toEqual(countsBefore);
  });

  test(`at least ${TOTAL_REQUESTS_MIN} requests were sent, and every table has the rows it had before`, () => {
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS_MIN);
    expect(rowCounts()).toEqual(before.counts);
  });
});
