/**
 * Reading Kinde's meter back. Kinde's published spec has no such endpoint;
 * Part B reports one (the current cycle by default, `all_cycles=true` for
 * every record, scope read:meter_usage) without its response shape. So the
 * path and parameters are configuration, and this parser accepts the shapes a
 * read can plausibly have, refusing (unreadable) whatever it cannot account for:
 *  - records: items with `meter_value` (and `meter_type_code`, absolute when
 *    absent), folded in creation order: absolute replaces, delta adds;
 *  - totals: items with `total` (or `current_total`), one per cycle;
 *  - a bare total at the top level (current cycle only).
 * Items carry their feature as `billing_feature_code` or `feature_code`, and
 * their cycle as a period start (`cycle_start`, `period_start`,
 * `current_period_start`, `billing_period_start`); an item without one is
 * taken to be in the current cycle only when the read asked for the current cycle.
 */
import { cycleNameOf } from "../cycle";

export type MeterReadResult = { ok: true; total: number } | { ok: false; reason: string };

const ITEM_LISTS = ["meter_usage", "records", "data", "usage", "meter_usage_records"] as const;
const PERIOD_FIELDS = ["cycle_start", "period_start", "current_period_start", "billing_period_start"] as const;
const ORDER_FIELDS = ["created_on", "created_at", "recorded_on"] as const;

export function wholeNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

export function itemsOf(body: unknown): unknown[] | null {
  if (typeof body !== "object" || body === null) return null;
  for (const name of ITEM_LISTS) {
    const value = (body as Record<string, unknown>)[name];
    if (Array.isArray(value)) return value;
  }
  return null;
}

/**
 * The total for one feature and cycle from every page of a read.
 * `askedAllCycles` says whether the read asked for every cycle (then items must name their cycle).
 */
export function meterTotalFromRead(
  pages: readonly unknown[],
  want: { featureCode: string; cycle: string; currentCycle: string; askedAllCycles: boolean },
): MeterReadResult {
  const items: unknown[] = [];
  for (const page of pages) {
    const list = itemsOf(page);
    if (list) {
      items.push(...list);
      continue;
    }
    const bare = typeof page === "object" && page !== null ? wholeNumber((page as Record<string, unknown>).total ?? (page as Record<string, unknown>).current_total) : null;
    if (bare === null) return { ok: false, reason: "the answer has neither a list of records nor a total" };
    if (pages.length > 1 || want.cycle !== want.currentCycle || want.askedAllCycles) return { ok: false, reason: "a bare total can only answer for the current cycle" };
    return { ok: true, total: bare };
  }

  let total = 0;
  let sawTotal = false;
  const records: { order: number; index: number; kind: string; value: number }[] = [];
  for (const [index, raw] of items.entries()) {
    if (typeof raw !== "object" || raw === null) return { ok: false, reason: `item ${index} is not an object` };
    const item = raw as Record<string, unknown>;
    const feature = item.billing_feature_code ?? item.feature_code;
    if (feature !== undefined && feature !== want.featureCode) continue;
    const period = PERIOD_FIELDS.map((f) => item[f]).find((v) => typeof v === "string");
    let cycle: string;
    if (typeof period === "string") {
      const startMs = Date.parse(period);
      if (Number.isNaN(startMs)) return { ok: false, reason: `item ${index} has a period start that is not a date` };
      cycle = cycleNameOf(startMs);
    } else if (!want.askedAllCycles) {
      cycle = want.currentCycle;
    } else {
      return { ok: false, reason: `item ${index} does not say which cycle it belongs to` };
    }
    if (cycle !== want.cycle) continue;

    const itemTotal = item.total ?? item.current_total;
    if (itemTotal !== undefined) {
      const value = wholeNumber(itemTotal);
      if (value === null) return { ok: false, reason: `item ${index} has a total that is not a whole number` };
      if (sawTotal) return { ok: false, reason: "two totals for one cycle" };
      sawTotal = true;
      total = value;
      continue;
    }
    const value = wholeNumber(item.meter_value);
    if (value === null) return { ok: false, reason: `item ${index} has neither a total nor a whole-number meter_value` };
    const kind = item.meter_type_code ?? "absolute";
    if (kind !== "absolute" && kind !== "delta") return { ok: false, reason: `item ${index} has meter_type_code ${String(kind)}` };
    const orderField = ORDER_FIELDS.map((f) => item[f]).find((v) => typeof v === "string");
    const order = typeof orderField === "string" ? Date.parse(orderField) : NaN;
    records.push({ order: Number.isNaN(order) ? index : order, index, kind, value });
  }
  if (sawTotal && records.length > 0) return { ok: false, reason: "the answer mixes totals and records" };
  if (sawTotal) return { ok: true, total };
  records.sort((a, b) => a.order - b.order || a.index - b.index);
  for (const record of records) total = record.kind === "absolute" ? record.value : total + record.value;
  return { ok: true, total };
}
