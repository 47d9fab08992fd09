/**
 * Intake (Part C, rules 1 and 2): check the signature, store the event, answer.
 * Nothing is applied here; the answer means "stored". Both the route and the
 * contract tests call this with a real Request, so the nine deliveries run
 * through the same code on both engines.
 */
import type { JWTVerifyGetKey } from "jose";
import { AppError } from "../errors";
import type { Engine } from "../engine/types";
import type { Runtime } from "../runtime";
import { readText } from "../http/api";
import { readFields } from "./fields";
import * as inbox from "./scripts";
import { verifyWebhookToken, type VerifiedEvent } from "./verify";

export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;
/** The Engine Room's drill header: honoured only with the operator token. */
export const DRILL_HEADER = "tollbooth-drill";
export const DRILL_STOP_WORKER = "stop-worker-mid-apply";

export interface IntakeDeps {
  run: Engine["run"];
  keys: JWTVerifyGetKey;
  nowMs: number;
  maxAgeMs: number;
  log(message: string): void;
  /** The request carried the operator token (only then is the drill header honoured). */
  operator: boolean;
}

export interface IntakeResult {
  inboxEventId: string;
  stored: boolean;
  seenCount: number;
}

/** The server's intake dependencies: its engine, the provider's key set, the configured replay window. */
export function runtimeIntakeDeps(runtime: Runtime, operator: boolean, what = "webhook"): IntakeDeps {
  return {
    run: runtime.engine.run.bind(runtime.engine),
    keys: runtime.provider.webhookKeys(),
    nowMs: Date.now(),
    maxAgeMs: runtime.config.inbox.webhookMaxAgeMs,
    log: (message) => console.warn(`[tollbooth] ${what}: ${message}`),
    operator,
  };
}

/** Reads and verifies a webhook request; the 4xx refusals, in the order they are checked. */
export async function readWebhook(request: Request, deps: Pick<IntakeDeps, "keys" | "nowMs" | "maxAgeMs" | "log">): Promise<{ token: string; event: VerifiedEvent }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/jwt\s*(;|$)/i.test(type)) throw new AppError("unsupported_media_type", "A Kinde webhook's body is a JWT: Content-Type must be application/jwt.");
  const token = await readText(request, WEBHOOK_BODY_LIMIT_BYTES);
  try {
    return { token, event: await verifyWebhookToken(token, deps) };
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") deps.log(`webhook refused (401): ${error.message}`);
    throw error;
  }
}

/** The dedupe key: the webhook-id header (the same on every attempt), else the event's event_id. */
export function dedupeKeyOf(request: Request, event: VerifiedEvent): string {
  const header = request.headers.get("webhook-id")?.trim() ?? "";
  if (header !== "") {
    if (header.length > 200 || !/^[\x21-\x7e]+$/.test(header)) throw new AppError("invalid_input", "The webhook-id header must be 1 to 200 printable characters.");
    return header;
  }
  if (event.eventId !== null) return event.eventId;
  throw new AppError("invalid_input", "The webhook has neither a webhook-id header nor an event_id, so copies of it could not be told apart.");
}

export async function intake(request: Request, deps: IntakeDeps): Promise<IntakeResult> {
  const { token, event } = await readWebhook(request, deps);
  const dedupeKey = dedupeKeyOf(request, event);
  const drill = request.headers.get(DRILL_HEADER);
  if (drill !== null && (drill !== DRILL_STOP_WORKER || !deps.operator)) {
    throw new AppError("forbidden", `The ${DRILL_HEADER} header is the Engine Room's (${DRILL_STOP_WORKER}) and needs the operator token.`);
  }
  const webhookId = request.headers.get("webhook-id")?.trim() || null;
  const result = await deps.run(inbox.receive, {
    source: inbox.SOURCE_KINDE,
    dedupeKey,
    webhookId,
    eventId: event.eventId,
    type: event.type,
    payload: JSON.stringify(event.claims),
    occurredAtMs: event.occurredAtMs,
    customerId: readFields(event.claims).customerId,
    sizeBytes: Buffer.byteLength(token),
    stopAtAttempt: drill === null ? null : 1,
  });
  return { inboxEventId: result.inboxEventId, stored: result.stored, seenCount: result.seenCount };
}
