/**
 * The stand-in's plan catalog: what each plan grants per feature, per billing
 * cycle. `null` is no maximum (Kinde's null entitlement_limit_max). Limits
 * are whole units (tokens, clicks). An operator can override any limit per
 * account (standin.setLimit); the catalog itself is code, the same on both engines.
 *
 * Free matches Part A's example plan (100,000 tokens: five 40,000-token jobs
 * cannot all fit) and gives 1,000 clicks; Pro is ten times the tokens and a
 * hundred times the clicks.
 */
export interface StandinPlan {
  code: string;
  name: string;
  entitlements: Readonly<Record<string, number | null>>;
}

export const STANDIN_PLANS: readonly StandinPlan[] = [
  { code: "free", name: "Free", entitlements: { tokens: 100_000, clicks: 1_000 } },
  { code: "pro", name: "Pro", entitlements: { tokens: 1_000_000, clicks: 100_000 } },
];

export const DEFAULT_PLAN_CODE = "free";

export function planOf(code: string): StandinPlan | undefined {
  return STANDIN_PLANS.find((p) => p.code === code);
}
