/**
 * Where the handlers find what they need in an event. Kinde documents the
 * top level of a webhook (type, event_id, timestamp, event_timestamp, data)
 * but not the `data` of billing events (shared/spec/kinde-api.md §6), so every
 * path into `data` is listed here, in one place, tried in order. Part C's live
 * customer.plan_changed payload has data.customer_id and data.plan.key.
 */

export const EVENT_FIELD_PATHS = {
  customerId: ["data.customer_id", "data.customer.id"],
  planKey: ["data.plan.key", "data.plan.code", "data.plan_key"],
  agreementId: ["data.agreement_id", "data.customer_agreement_id", "data.agreement.id"],
} as const satisfies Record<string, readonly string[]>;

/**
 * Provider plan keys → the app's plans. Kinde plan keys are whatever the
 * billing admin named them ("customer_pro_plan" in Part C); the stand-in uses
 * the app's own keys. A key not listed here is ignored with a reason, never guessed.
 */
export const PLAN_KEYS: Readonly<Record<string, string>> = {
  free: "free",
  pro: "pro",
  customer_free_plan: "free",
  customer_pro_plan: "pro",
};

export interface EventFields {
  customerId: string | null;
  planKey: string | null;
  agreementId: string | null;
}

/** The first string found at any of `paths` (dotted, from the payload root). */
export function readPath(payload: unknown, paths: readonly string[]): string | null {
  for (const path of paths) {
    let node: unknown = payload;
    for (const part of path.split(".")) {
      node = typeof node === "object" && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>)[part] : undefined;
    }
    if (typeof node === "string" && node.length > 0 && node.length <= 200) return node;
  }
  return null;
}

export function readFields(payload: unknown): EventFields {
  return {
    customerId: readPath(payload, EVENT_FIELD_PATHS.customerId),
    planKey: readPath(payload, EVENT_FIELD_PATHS.planKey),
    agreementId: readPath(payload, EVENT_FIELD_PATHS.agreementId),
  };
}

/** The app plan a provider key names, or null when the catalog does not know it. */
export function planOfKey(key: string): string | null {
  return Object.hasOwn(PLAN_KEYS, key) ? PLAN_KEYS[key]! : null;
}
