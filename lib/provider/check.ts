/**
 * A connection check: every read the port offers, for one account, each
 * answer or error kept apart so one failing scope does not hide the others.
 * The Provider page and GET /api/v1/provider/accounts/:id/check show it; it is
 * how an operator sees that Kinde credentials, scopes and customer ids work.
 * It reads only: it never writes the meter.
 */
import type { Account } from "../accounts/repo";
import { providerAccountOf } from "./account";
import { cycleNameOf } from "./cycle";
import { isProviderError, type BillingProvider } from "./port";

export type Checked<T> = { ok: true; value: T } | { ok: false; kind: string; message: string };

export interface ProviderCheck {
  provider: BillingProvider["name"];
  accountId: string;
  agreement: Checked<{ id: string; planCode: string; currentPeriodStartMs: number | null; cycle: string | null } | null>;
  limits: { featureCode: string; limit: Checked<string> }[];
  usage: { featureCode: string; total: Checked<number> }[];
}

async function checked<T>(run: () => Promise<T>): Promise<Checked<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (isProviderError(error)) return { ok: false, kind: error.kind, message: error.message };
    return { ok: false, kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
}

export async function checkProvider(provider: BillingProvider, account: Account, featureCodes: readonly string[]): Promise<ProviderCheck> {
  const target = providerAccountOf(account);
  const agreement = await checked(async () => {
    const a = await provider.currentAgreement(target);
    return a && { ...a, cycle: a.currentPeriodStartMs === null ? null : cycleNameOf(a.currentPeriodStartMs) };
  });
  const cycle = agreement.ok ? agreement.value?.cycle : null;
  const limits = await Promise.all(
    featureCodes.map(async (featureCode) => ({
      featureCode,
      limit: await checked(async () => {
        const limit = await provider.readLimit(target, featureCode);
        return limit.kind === "unlimited" ? "unlimited" : limit.max.toLocaleString("en");
      }),
    })),
  );
  const usage = await Promise.all(
    featureCodes.map(async (featureCode) => ({
      featureCode,
      total: cycle
        ? await checked(() => provider.readUsage(target, featureCode, cycle))
        : ({ ok: false, kind: "unreadable", message: "No current cycle to read (the agreement could not be read)." } as const),
    })),
  );
  return { provider: provider.name, accountId: account.id, agreement, limits, usage };
}
