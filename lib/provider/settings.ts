/**
 * The billing provider's settings from the environment. Kept apart from
 * lib/config.ts (which spreads this schema into its own) because Convex's
 * runtime reads them too (convex/scheduled.ts) and cannot load node:path.
 */
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const int = (min: number, max: number, fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

export const DEFAULT_METER_READ_PATH = "/api/v1/billing/meter_usage";

export const providerEnvShape = {
  TOLLBOOTH_PROVIDER: z.preprocess(emptyToUndefined, z.enum(["standin", "kinde"]).default("standin")),
  TOLLBOOTH_PROVIDER_TIMEOUT_MS: int(100, 120_000, 10_000),
  KINDE_DOMAIN: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  KINDE_M2M_CLIENT_ID: optionalString,
  KINDE_M2M_CLIENT_SECRET: optionalString,
  KINDE_AUDIENCE: optionalString,
  KINDE_JWKS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  KINDE_PAGE_SIZE: int(1, 500, 100),
  KINDE_METER_READ_PATH: z.preprocess(emptyToUndefined, z.string().regex(/^(off|\/[A-Za-z0-9_\-/.{}]*)$/, "expected off, or a path starting with /").optional()),
  KINDE_METER_READ_ALL_CYCLES_PARAM: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_]+=[A-Za-z0-9_]+$/, "expected name=value").default("all_cycles=true")),
  KINDE_METER_READ_PARAMS: z.preprocess(emptyToUndefined, z.string().max(500).default("")),
};

export interface KindeSettings {
  /** https://<subdomain>.kinde.com (no trailing slash); http allowed for the fake server. */
  domain: string;
  clientId: string;
  clientSecret: string;
  /** M2M token audience; Kinde's SDK uses `${domain}/api`. */
  audience: string;
  /** Where webhook keys are published; `jwks.json` beside it is tried when it fails. */
  jwksUrl: string;
  /** Entitlements and agreements per page (Kinde caps page_size at 500). */
  pageSize: number;
  /** The unpublished meter read: null when off. */
  meterRead: { path: string; allCyclesParam: string; extraParams: string } | null;
}

export interface ProviderSettings {
  provider: "standin" | "kinde";
  /** Every provider call gives up after this (Kinde's HTTP requests; the stand-in's "stop answering" switch). */
  timeoutMs: number;
  kinde: KindeSettings | null;
}

const providerEnvSchema = z.object(providerEnvShape);
type ProviderEnv = z.output<typeof providerEnvSchema>;

/** For superRefine: the problems with the provider variables. */
export function providerEnvProblems(env: ProviderEnv): { path: string; message: string }[] {
  if (env.TOLLBOOTH_PROVIDER !== "kinde") return [];
  return (["KINDE_DOMAIN", "KINDE_M2M_CLIENT_ID", "KINDE_M2M_CLIENT_SECRET"] as const)
    .filter((name) => !env[name])
    .map((name) => ({ path: name, message: `expected a value: required when TOLLBOOTH_PROVIDER=kinde (see README, "Connecting Kinde")` }));
}

export function toProviderSettings(env: ProviderEnv): ProviderSettings {
  const domain = env.KINDE_DOMAIN?.replace(/\/+$/, "");
  const readPath = env.KINDE_METER_READ_PATH ?? DEFAULT_METER_READ_PATH;
  return {
    provider: env.TOLLBOOTH_PROVIDER,
    timeoutMs: env.TOLLBOOTH_PROVIDER_TIMEOUT_MS,
    kinde:
      env.TOLLBOOTH_PROVIDER === "kinde" && domain
        ? {
            domain,
            clientId: env.KINDE_M2M_CLIENT_ID!,
            clientSecret: env.KINDE_M2M_CLIENT_SECRET!,
            audience: env.KINDE_AUDIENCE ?? `${domain}/api`,
            jwksUrl: env.KINDE_JWKS_URL ?? `${domain}/.well-known/jwks`,
            pageSize: env.KINDE_PAGE_SIZE,
            meterRead:
              readPath === "off" ? null : { path: readPath, allCyclesParam: env.KINDE_METER_READ_ALL_CYCLES_PARAM, extraParams: env.KINDE_METER_READ_PARAMS },
          }
        : null,
  };
}

/** Reads the provider settings alone (Convex's side); a problem throws with the variable's name. */
export function readProviderSettings(env: Record<string, string | undefined>): ProviderSettings {
  const result = providerEnvSchema.safeParse(env);
  if (!result.success) throw new Error(`Provider settings: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const problems = providerEnvProblems(result.data);
  if (problems.length > 0) throw new Error(`Provider settings: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
  return toProviderSettings(result.data);
}
