/**
 * The environment, read and checked in one place. A bad or missing value
 * stops the start with a message naming the variable and what it expects.
 */
import path from "node:path";
import { z } from "zod";
import { inboxEnvShape, toInboxSettings, type InboxSettings } from "./inbox/settings";
import { providerEnvProblems, providerEnvShape, toProviderSettings, type KindeSettings } from "./provider/settings";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const schema = z
  .object({
    TOLLBOOTH_ENGINE: z.preprocess(emptyToUndefined, z.enum(["sqlite", "convex"]).optional()),
    CONVEX_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    TOLLBOOTH_SERVER_KEY: optionalString,
    TOLLBOOTH_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default(".tollbooth")),
    TOLLBOOTH_SCHEDULER: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
    TOLLBOOTH_OPERATOR_TOKEN: optionalString,
    // The provider's variables (TOLLBOOTH_PROVIDER, KINDE_*), shared with Convex's runtime.
    ...providerEnvShape,
    // The inbox's variables (replay window, alert webhook).
    ...inboxEnvShape,
    // Sign-in (lib/auth): the session signing key, and how operators sign in.
    TOLLBOOTH_SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "expected a secret of at least 32 characters").optional()),
    TOLLBOOTH_OPERATOR_SIGNIN: z.preprocess(emptyToUndefined, z.enum(["local", "kinde"]).optional()),
    KINDE_CLIENT_ID: optionalString,
    KINDE_CLIENT_SECRET: optionalString,
    KINDE_ISSUER_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    KINDE_SITE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  })
  .superRefine((env, ctx) => {
    const engine = env.TOLLBOOTH_ENGINE ?? (env.CONVEX_URL ? "convex" : "sqlite");
    if (engine === "convex") {
      if (!env.CONVEX_URL) ctx.addIssue({ code: "custom", path: ["CONVEX_URL"], message: "expected the deployment URL (https://<name>.convex.cloud) when TOLLBOOTH_ENGINE=convex" });
      if (!env.TOLLBOOTH_SERVER_KEY || env.TOLLBOOTH_SERVER_KEY.length < 32)
        ctx.addIssue({ code: "custom", path: ["TOLLBOOTH_SERVER_KEY"], message: "expected a secret of at least 32 characters, set to the same value on the Convex deployment (npx convex env set TOLLBOOTH_SERVER_KEY …)" });
    }
    for (const problem of providerEnvProblems(env)) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
    if (env.TOLLBOOTH_OPERATOR_SIGNIN === "kinde") {
      if (env.TOLLBOOTH_PROVIDER !== "kinde") ctx.addIssue({ code: "custom", path: ["TOLLBOOTH_OPERATOR_SIGNIN"], message: "expected local unless TOLLBOOTH_PROVIDER=kinde" });
      for (const name of KINDE_AUTH_VARS) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `expected a value: required when TOLLBOOTH_OPERATOR_SIGNIN=kinde (see README, "Operators signing in with Kinde")` });
      }
    }
  });

const KINDE_AUTH_VARS = ["KINDE_CLIENT_ID", "KINDE_CLIENT_SECRET", "KINDE_ISSUER_URL", "KINDE_SITE_URL"] as const;

export interface Config {
  engine: "sqlite" | "convex";
  convexUrl: string | null;
  serverKey: string | null;
  provider: "standin" | "kinde";
  /** Every provider call gives up after this many milliseconds. */
  providerTimeoutMs: number;
  dataDir: string;
  schedulerEnabled: boolean;
  operatorTokenOverride: string | null;
  kinde: KindeSettings | null;
  inbox: InboxSettings;
  /** Used instead of the data folder's session-secret file (several servers must share one). */
  sessionSecretOverride: string | null;
  /** How operators sign in: local passwords, or Kinde (TOLLBOOTH_PROVIDER=kinde and the Kinde auth variables). */
  operatorSignIn: "local" | "kinde";
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Tollbooth cannot start; fix the environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = result.data;
  const engine = e.TOLLBOOTH_ENGINE ?? (e.CONVEX_URL ? "convex" : "sqlite");
  const provider = toProviderSettings(e);
  return {
    engine,
    convexUrl: e.CONVEX_URL ?? null,
    serverKey: e.TOLLBOOTH_SERVER_KEY ?? null,
    provider: provider.provider,
    providerTimeoutMs: provider.timeoutMs,
    dataDir: path.resolve(e.TOLLBOOTH_DATA_DIR),
    schedulerEnabled: e.TOLLBOOTH_SCHEDULER === "on",
    operatorTokenOverride: e.TOLLBOOTH_OPERATOR_TOKEN ?? null,
    kinde: provider.kinde,
    inbox: toInboxSettings(e),
    sessionSecretOverride: e.TOLLBOOTH_SESSION_SECRET ?? null,
    operatorSignIn:
      e.TOLLBOOTH_OPERATOR_SIGNIN ?? (provider.provider === "kinde" && KINDE_AUTH_VARS.every((name) => e[name] !== undefined) ? "kinde" : "local"),
  };
}
