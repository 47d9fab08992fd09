/**
 * The Kinde adapter: the BillingProvider port over Kinde's Management API
 * (facts and their sources: shared/spec/kinde-api.md). Uses fetch and jose
 * directly, not @kinde/management-api-js: see ARCHITECTURE.md, "Billing provider".
 */
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { cycleNameOf } from "../cycle";
import { ProviderError, type Agreement, type BillingProvider, type Limit, type ProviderAccount } from "../port";
import type { KindeSettings } from "../settings";
import { KindeClient } from "./client";
import { OPERATIONS, type KindeOperation } from "./errors";
import { meterTotalFromRead } from "./meter-read";
import { M2MTokenSource } from "./token";

/** A customer with more pages than this is refused as unreadable rather than read forever. */
export const MAX_PAGES = 100;

export interface KindeProviderOptions {
  settings: KindeSettings;
  timeoutMs: number;
  fetch?: typeof fetch;
  nowMs?: () => number;
}

const entitlementSchema = z.looseObject({
  id: z.string(),
  feature_code: z.string(),
  entitlement_limit_max: z.number().int().nullable().optional(),
});
const agreementSchema = z.looseObject({
  id: z.string(),
  plan_code: z.string(),
  expires_on: z.string().nullable().optional(),
  current_period_start: z.string().nullable().optional(),
});
const pageOf = <T extends z.ZodType>(field: string, item: T) => z.looseObject({ has_more: z.boolean().optional(), [field]: z.array(item) });

export class KindeProvider implements BillingProvider {
  readonly name = "kinde" as const;
  readonly tokens: M2MTokenSource;
  private readonly client: KindeClient;
  private readonly settings: KindeSettings;
  private readonly nowMs: () => number;
  private readonly keys: JWTVerifyGetKey;

  constructor(options: KindeProviderOptions) {
    const { settings, timeoutMs } = options;
    this.settings = settings;
    this.nowMs = options.nowMs ?? Date.now;
    this.tokens = new M2MTokenSource({ ...settings, timeoutMs, fetch: options.fetch, nowMs: options.nowMs });
    this.client = new KindeClient({ domain: settings.domain, timeoutMs, tokens: this.tokens, fetch: options.fetch, nowMs: options.nowMs });
    this.keys = webhookKeySet(settings.jwksUrl, timeoutMs);
  }

  async readLimit(account: ProviderAccount, featureCode: string): Promise<Limit> {
    const customerId = requireCustomer(account);
    const entitlements = await this.allPages(OPERATIONS.entitlements, "/api/v1/billing/entitlements", { customer_id: customerId }, "entitlements", entitlementSchema);
    const matching = entitlements.filter((e) => e.feature_code === featureCode);
    if (matching.length === 0) throw new ProviderError("not_found", `Kinde's entitlements for ${customerId} have no feature ${featureCode}.`);
    // Two agreements can grant one feature; the larger limit applies, and no maximum beats any number.
    if (matching.some((e) => e.entitlement_limit_max === null || e.entitlement_limit_max === undefined)) return { kind: "unlimited" };
    return { kind: "limited", max: Math.max(...matching.map((e) => e.entitlement_limit_max as number)) };
  }

  async currentAgreement(account: ProviderAccount): Promise<Agreement | null> {
    const customerId = requireCustomer(account);
    const agreements = await this.allPages(OPERATIONS.agreements, "/api/v1/billing/agreements", { customer_id: customerId }, "agreements", agreementSchema);
    const nowMs = this.nowMs();
    const active = agreements
      .filter((a) => !a.expires_on || Date.parse(a.expires_on) > nowMs)
      .map((a) => ({ id: a.id, planCode: a.plan_code, currentPeriodStartMs: a.current_period_start ? Date.parse(a.current_period_start) : null }))
      .filter((a) => a.currentPeriodStartMs === null || !Number.isNaN(a.currentPeriodStartMs));
    // The current one: the latest period start; an agreement with no current cycle only when nothing else is active.
    active.sort((a, b) => (b.currentPeriodStartMs ?? -Infinity) - (a.currentPeriodStartMs ?? -Infinity));
    return active[0] ?? null;
  }

  async setUsage(account: ProviderAccount, featureCode: string, _cycle: string, total: number): Promise<void> {
    if (!Number.isSafeInteger(total) || total < 0) throw new ProviderError("rejected", `A meter total must be a whole number of 0 or more (got ${total}).`);
    const agreementId = account.agreementId ?? (await this.agreementForWrite(account));
    await this.client.call(OPERATIONS.meterWrite, {
      method: "POST",
      path: "/api/v1/billing/meter_usage",
      // Absolute: the meter becomes `total`, so sending it again changes nothing. Kinde takes the value as a string.
      body: { customer_agreement_id: agreementId, billing_feature_code: featureCode, meter_value: String(total), meter_type_code: "absolute" },
    });
  }

  async readUsage(account: ProviderAccount, featureCode: string, cycle: string): Promise<number> {
    const read = this.settings.meterRead;
    if (!read) throw new ProviderError("unreadable", "Reading Kinde's meter back is off (KINDE_METER_READ_PATH=off).");
    const agreement = await this.requireAgreement(account);
    if (agreement.currentPeriodStartMs === null) throw new ProviderError("unreadable", `Kinde's agreement ${agreement.id} has no current cycle to read.`);
    const currentCycle = cycleNameOf(agreement.currentPeriodStartMs);
    const askedAllCycles = cycle !== currentCycle;
    const query: Record<string, string> = {
      ...Object.fromEntries(new URLSearchParams(read.extraParams)),
      customer_agreement_id: account.agreementId ?? agreement.id,
      billing_feature_code: featureCode,
    };
    if (askedAllCycles) {
      const [name, value] = read.allCyclesParam.split("=") as [string, string];
      query[name] = value;
    }
    const pages = await this.rawPages(OPERATIONS.meterRead, read.path, query);
    const result = meterTotalFromRead(pages, { featureCode, cycle, currentCycle, askedAllCycles });
    if (!result.ok) throw new ProviderError("unreadable", `Kinde's meter read could not be understood: ${result.reason}.`);
    return result.total;
  }

  webhookKeys(): JWTVerifyGetKey {
    return this.keys;
  }

  webhookKeySetUrl(): string {
    return this.settings.jwksUrl;
  }

  /** The write was not sent when the agreement lookup failed: a read that could not answer means "try the write later". */
  private async agreementForWrite(account: ProviderAccount): Promise<string> {
    try {
      return (await this.requireAgreement(account)).id;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === "unreadable") throw new ProviderError("retry_later", error.message, error.retryAfterMs);
      throw error;
    }
  }

  private async requireAgreement(account: ProviderAccount): Promise<Agreement> {
    const agreement = await this.currentAgreement(account);
    if (!agreement) throw new ProviderError("not_found", `Kinde has no current agreement for ${account.customerId}.`);
    return agreement;
  }

  /** Every item of a paged list: `starting_after` the last id while `has_more`. */
  private async allPages<T extends z.ZodType<{ id: string }>>(
    operation: KindeOperation,
    path: string,
    query: Record<string, string>,
    field: string,
    item: T,
  ): Promise<z.output<T>[]> {
    const schema = pageOf(field, item);
    const out: z.output<T>[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await this.client.call(operation, { method: "GET", path, query: { ...query, page_size: String(this.settings.pageSize), starting_after: startingAfter } });
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new ProviderError("unreadable", `Kinde's answer to ${operation.label} did not have the documented shape (${parsed.error.issues[0]?.message ?? "?"}).`);
      const items = parsed.data[field] as z.output<T>[];
      out.push(...items);
      const last = items.at(-1);
      if (!parsed.data.has_more || !last) return out;
      startingAfter = last.id;
    }
    throw new ProviderError("unreadable", `Kinde's answer to ${operation.label} ran past ${MAX_PAGES} pages.`);
  }

  /** Pages of an answer whose shape is not published (the meter read): followed while `has_more`, by the last item's id. */
  private async rawPages(operation: KindeOperation, path: string, query: Record<string, string>): Promise<unknown[]> {
    const pages: unknown[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await this.client.call(operation, { method: "GET", path, query: { ...query, starting_after: startingAfter } });
      pages.push(body);
      const list = typeof body === "object" && body !== null ? Object.values(body).find(Array.isArray) : undefined;
      const lastId = (list?.at(-1) as { id?: unknown } | undefined)?.id;
      if ((body as { has_more?: unknown }).has_more !== true || typeof lastId !== "string") return pages;
      startingAfter = lastId;
    }
    throw new ProviderError("unreadable", `Kinde's answer to ${operation.label} ran past ${MAX_PAGES} pages.`);
  }
}

function requireCustomer(account: ProviderAccount): string {
  if (!account.customerId) throw new ProviderError("not_found", `Account ${account.accountId} is not connected to a Kinde customer (it has no kindeCustomerId).`);
  return account.customerId;
}

/**
 * Kinde's webhook signing keys, fetched with jose and cached (10 minutes; an
 * unknown kid refetches, at most every 30 s). The docs publish
 * /.well-known/jwks and Kinde's own validator fetches /.well-known/jwks.json:
 * when the first cannot be fetched, the second is tried.
 */
export function webhookKeySet(jwksUrl: string, timeoutMs: number): JWTVerifyGetKey {
  const options = { timeoutDuration: timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 };
  const primary = createRemoteJWKSet(new URL(jwksUrl), options);
  const alternateUrl = jwksUrl.endsWith("/jwks") ? `${jwksUrl}.json` : jwksUrl.endsWith("/jwks.json") ? jwksUrl.slice(0, -".json".length) : null;
  const alternate = alternateUrl ? createRemoteJWKSet(new URL(alternateUrl), options) : null;
  return async (header, token) => {
    try {
      return await primary(header, token);
    } catch (error) {
      if (!alternate || error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      return alternate(header, token);
    }
  };
}
