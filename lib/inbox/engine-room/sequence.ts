/**
 * Engine Room sequences: a few named events and the order their copies
 * arrive in. Written as text so an operator can compose one:
 *
 *   events (one per line):  <name> <type> <plan or -> <seconds from the start>
 *   deliveries:             names in arrival order; a trailing ! stops the
 *                           worker in the middle of applying that delivery
 *
 * The article's sequence (Part C) is the default; ARCHITECTURE.md walks through it.
 */
import { AppError } from "../../errors";

export interface SequenceEvent {
  name: string;
  type: string;
  plan: string | null;
  /** Event time relative to the run's start. */
  offsetSeconds: number;
}

export interface SequenceDelivery {
  event: string;
  /** The worker (or the naive handler) stops in the middle of applying this delivery. */
  stopWorker: boolean;
}

export interface Sequence {
  events: SequenceEvent[];
  deliveries: SequenceDelivery[];
}

export const EVENTS_MAX = 10;
export const DELIVERIES_MAX = 40;
const OFFSET_MIN_SECONDS = -30 * 24 * 3600;
const OFFSET_MAX_SECONDS = 240;

export const ARTICLE_EVENTS_TEXT = [
  "plan    customer.plan_changed         pro  0",
  "pay     customer.payment_succeeded    pro  1",
  "cancel  customer.agreement_cancelled  -    -180",
].join("\n");
export const ARTICLE_DELIVERIES_TEXT = "pay plan! plan pay pay pay cancel plan pay";

export function parseSequence(eventsText: string, deliveriesText: string): Sequence {
  const problems: string[] = [];
  const events: SequenceEvent[] = [];
  const lines = eventsText
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  lines.forEach((line, i) => {
    const parts = line.split(/\s+/);
    if (parts.length !== 4) return problems.push(`event line ${i + 1}: expected "<name> <type> <plan or -> <seconds>", got "${line}"`);
    const [name, type, plan, offset] = parts as [string, string, string, string];
    if (!/^[a-z][a-z0-9_]{0,19}$/.test(name)) problems.push(`event line ${i + 1}: the name "${name}" must be lowercase letters, digits or _ (at most 20)`);
    else if (events.some((e) => e.name === name)) problems.push(`event line ${i + 1}: the name "${name}" is used twice`);
    if (!/^[a-z_]+\.[a-z_]+$/.test(type) || type.length > 60) problems.push(`event line ${i + 1}: "${type}" is not an event type such as customer.plan_changed`);
    if (plan !== "-" && !/^[a-z0-9_]{1,40}$/.test(plan)) problems.push(`event line ${i + 1}: the plan "${plan}" must be a plan key or -`);
    const seconds = Number(offset);
    if (!Number.isInteger(seconds) || seconds < OFFSET_MIN_SECONDS || seconds > OFFSET_MAX_SECONDS) {
      problems.push(`event line ${i + 1}: the time "${offset}" must be whole seconds from ${OFFSET_MIN_SECONDS} to ${OFFSET_MAX_SECONDS}`);
    }
    events.push({ name, type, plan: plan === "-" ? null : plan, offsetSeconds: seconds });
  });
  if (events.length === 0) problems.push("at least one event is needed");
  if (events.length > EVENTS_MAX) problems.push(`at most ${EVENTS_MAX} events`);

  const deliveries: SequenceDelivery[] = [];
  const seen = new Set<string>();
  for (const word of deliveriesText.split(/[\s,]+/).filter((w) => w !== "")) {
    const stopWorker = word.endsWith("!");
    const name = stopWorker ? word.slice(0, -1) : word;
    if (!events.some((e) => e.name === name)) problems.push(`delivery ${deliveries.length + 1}: no event is named "${name}"`);
    else if (stopWorker && seen.has(name)) {
      problems.push(`delivery ${deliveries.length + 1}: "${word}" — the worker can only stop on an event's first delivery (later copies are dropped before any worker runs)`);
    }
    seen.add(name);
    deliveries.push({ event: name, stopWorker });
  }
  if (deliveries.length === 0) problems.push("at least one delivery is needed");
  if (deliveries.length > DELIVERIES_MAX) problems.push(`at most ${DELIVERIES_MAX} deliveries`);
  if (problems.length > 0) throw new AppError("invalid_input", problems.slice(0, 5).join("; "));
  return { events, deliveries };
}

export function articleSequence(): Sequence {
  return parseSequence(ARTICLE_EVENTS_TEXT, ARTICLE_DELIVERIES_TEXT);
}

export function isArticleSequence(eventsText: string, deliveriesText: string): boolean {
  const norm = (s: string) => s.trim().split(/\s+/).join(" ");
  return norm(eventsText) === norm(ARTICLE_EVENTS_TEXT) && norm(deliveriesText) === norm(ARTICLE_DELIVERIES_TEXT);
}
