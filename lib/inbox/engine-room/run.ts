/**
 * The Engine Room: one sequence of deliveries run twice, each time on a fresh
 * test account — once through the pipeline (intake → inbox → worker), once
 * through the naive handler that applies on arrival — recording the account's
 * plan and balance after every delivery.
 *
 * The deliveries are signed JWTs sent through `deliver`: over HTTP to the real
 * endpoints in the app, into the same intake code directly in the contract
 * tests. The pipeline's worker is the real one: kicked by the endpoint after
 * its answer, and run here too until the account has nothing waiting.
 */
import { randomBytes } from "node:crypto";
import * as accounts from "../../accounts/scripts";
import type { Engine } from "../../engine/types";
import { makeId } from "../../ids";
import { DRILL_LEASE_MS } from "../decide";
import * as inbox from "../scripts";
import { runInboxWorker } from "../worker";
import type { Sequence, SequenceEvent } from "./sequence";

export type Target = "pipeline" | "naive";

export interface RoomDeps {
  run: Engine["run"];
  nowMs(): number;
  sleep(ms: number): Promise<void>;
  /** Signs Kinde-shaped claims with the key the endpoint trusts. */
  sign(claims: Record<string, unknown>): Promise<string>;
  deliver(target: Target, delivery: { token: string; webhookId: string; stopWorker: boolean }): Promise<{ status: number; body: unknown }>;
  log?(message: string): void;
}

export interface Step {
  n: number;
  event: string;
  /** Which copy of its event this delivery is (1 = first). */
  copy: number;
  stopWorker: boolean;
  /** The HTTP status the endpoint answered. */
  answer: number;
  /** What the endpoint did with it: "stored", "copy dropped", the refusal, or the naive handler's writes. */
  intake: string;
  /** What the worker did during this step (pipeline). */
  worker: string[];
  plan: string;
  balance: number;
}

export interface RunReport {
  target: Target;
  accountId: string;
  steps: Step[];
  copies: number;
  stored: number;
  dropped: number;
  refused: number;
  plan: string;
  balance: number;
  /** Grants written (rows in the allowance ledger for the period). */
  grants: number;
  /** Pipeline: each stored event's final status and result. */
  events: { name: string; status: string; attempts: number; seenCount: number; result: string | null }[];
}

interface BuiltEvent {
  def: SequenceEvent;
  token: string;
  webhookId: string;
}

const SETTLE_TIMEOUT_MS = 15_000;
const nodeRandom = (n: number) => randomBytes(n);

async function buildEvents(deps: RoomDeps, sequence: Sequence, customerId: string, startMs: number): Promise<Map<string, BuiltEvent>> {
  const built = new Map<string, BuiltEvent>();
  for (const def of sequence.events) {
    const atMs = startMs + def.offsetSeconds * 1000;
    const data: Record<string, unknown> = { user_id: `kp_${customerId.slice(-12)}`, customer_id: customerId, customer_type: "user" };
    if (def.plan !== null) data.plan = { key: def.plan };
    if (def.type === "customer.plan_changed" || def.type === "customer.plan_assigned" || def.type === "customer.agreement_created") {
      data.agreement_id = `agreement_${def.name}_${customerId.slice(-8)}`;
    }
    const claims = {
      type: def.type,
      event_id: makeId("evt", nodeRandom).replace(/^evt_/, "event_"),
      // Part C: event_timestamp is when it happened, timestamp about a second later when it was sent.
      timestamp: new Date(atMs + 1000).toISOString(),
      event_timestamp: new Date(atMs).toISOString(),
      source: "admin",
      data,
    };
    built.set(def.name, { def, token: await deps.sign(claims), webhookId: makeId("evt", nodeRandom).replace(/^evt_/, "msg_") });
  }
  return built;
}

async function newTestAccount(deps: RoomDeps, target: Target): Promise<{ id: string; customerId: string }> {
  const customerId = `customer_er${makeId("acct", nodeRandom).slice(5, 21)}`;
  const stamp = new Date(deps.nowMs()).toISOString().slice(0, 19).replace("T", " ");
  const account = await deps.run(accounts.create, { name: `Engine Room ${target} ${stamp}`, kindeCustomerId: customerId });
  return { id: account.id, customerId };
}

type EventRow = Awaited<ReturnType<typeof inbox.listForAccount.handler>>["events"][number];

/** Runs the worker until none of the account's events is waiting (a drilled stop waits for its lease, not for us). */
async function settle(deps: RoomDeps, accountId: string): Promise<void> {
  const ctx = { run: deps.run, nowMs: deps.nowMs, log: deps.log ?? (() => {}) };
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const state = await deps.run(inbox.accountState, { accountId });
    if (!state || state.waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`The Engine Room's account ${accountId} still has ${state.waiting} events waiting after ${SETTLE_TIMEOUT_MS / 1000} s.`);
    await runInboxWorker(ctx, { maxBatches: 4, lanes: 1 });
    await deps.sleep(10);
  }
}

function describeChange(name: string, before: EventRow | undefined, after: EventRow): string | null {
  if (before && before.status === after.status && before.attempts === after.attempts) return null;
  if (after.status === "processing" && after.attempts === after.stopAtAttempt) {
    return `${name}: the worker stopped in the middle of attempt ${after.attempts}; the transaction rolled back, the event stays stored (its lease runs out in ${DRILL_LEASE_MS / 1000} s)`;
  }
  if (after.status === "applied" || after.status === "ignored") return `${name}: ${after.result ?? after.status} (attempt ${after.attempts})`;
  if (after.status === "failed") return `${name}: failed at attempt ${after.attempts} (${after.lastError ?? ""})`;
  if (after.status === "dead") return `${name}: dead (${after.lastError ?? ""})`;
  return null;
}

export async function runSequence(deps: RoomDeps, sequence: Sequence, target: Target): Promise<RunReport> {
  const account = await newTestAccount(deps, target);
  const startMs = deps.nowMs();
  const events = await buildEvents(deps, sequence, account.customerId, startMs);
  const nameOf = new Map<string, string>(); // inbox event id → sequence name
  const copies = new Map<string, number>();
  const steps: Step[] = [];
  let stored = 0;
  let dropped = 0;
  let refused = 0;
  let before = new Map<string, EventRow>();

  for (const [i, delivery] of sequence.deliveries.entries()) {
    const event = events.get(delivery.event)!;
    const copy = (copies.get(delivery.event) ?? 0) + 1;
    copies.set(delivery.event, copy);
    const answer = await deps.deliver(target, { token: event.token, webhookId: event.webhookId, stopWorker: delivery.stopWorker });
    const body = answer.body as { stored?: boolean; inboxEventId?: string; seenCount?: number; did?: string; error?: { message?: string } } | null;
    let intake: string;
    if (answer.status !== 200) {
      intake = body?.error?.message ?? `answered ${answer.status}`;
      if (target === "pipeline") refused++;
    } else if (target === "naive") {
      intake = body?.did ?? "applied on arrival";
    } else if (body?.stored) {
      stored++;
      intake = "stored";
      nameOf.set(body.inboxEventId!, delivery.event);
    } else {
      dropped++;
      if (body?.inboxEventId) nameOf.set(body.inboxEventId, delivery.event);
      intake = `copy counted and dropped (seen ${body?.seenCount ?? "?"} times)`;
    }

    const worker: string[] = [];
    if (target === "pipeline") {
      await settle(deps, account.id);
      const rows = (await deps.run(inbox.listForAccount, { accountId: account.id, limit: 100 })).events;
      for (const row of rows) {
        const note = describeChange(nameOf.get(row.id) ?? row.type, before.get(row.id), row);
        if (note) worker.push(note);
      }
      before = new Map(rows.map((r) => [r.id, r]));
    }
    const state = (await deps.run(inbox.accountState, { accountId: account.id }))!;
    steps.push({ n: i + 1, event: delivery.event, copy, stopWorker: delivery.stopWorker, answer: answer.status, intake, worker, plan: state.plan, balance: state.balance });

    // A stopped worker holds its lease until it runs out; the next delivery comes after that.
    if (target === "pipeline" && worker.some((w) => w.includes("the worker stopped"))) await deps.sleep(DRILL_LEASE_MS + 50);
  }

  const state = (await deps.run(inbox.accountState, { accountId: account.id }))!;
  const rows = (await deps.run(inbox.listForAccount, { accountId: account.id, limit: 100 })).events;
  return {
    target,
    accountId: account.id,
    steps,
    copies: sequence.deliveries.length,
    stored,
    dropped,
    refused,
    plan: state.plan,
    balance: state.balance,
    grants: state.grants.length,
    events: rows
      .map((r) => ({ name: nameOf.get(r.id) ?? r.type, status: r.status, attempts: r.attempts, seenCount: r.seenCount, result: r.result }))
      .reverse(),
  };
}

export interface Checkpoint {
  label: string;
  expected: string;
  actual: string;
  ok: boolean;
}

/** The article's checkpoints (Part C), read from two real runs of its sequence. */
export function articleCheckpoints(naive: RunReport, pipeline: RunReport): Checkpoint[] {
  const at = (report: RunReport, n: number) => report.steps[n - 1];
  const planEvent = pipeline.events.find((e) => e.name === "plan");
  const cancel = pipeline.events.find((e) => e.name === "cancel");
  const finishedByNextCopy = at(pipeline, 3)?.worker.some((w) => w.startsWith("plan: plan set to pro") && w.includes("attempt 2")) ?? false;
  const rows: [string, string, string][] = [
    ["naive: after delivery 2", "pro, 10", `${at(naive, 2)?.plan}, ${at(naive, 2)?.balance}`],
    ["naive: after delivery 7", "free", `${at(naive, 7)?.plan}`],
    ["naive: after delivery 9", "2950", `${naive.balance}`],
    ["pipeline: copies / stored / dropped", "9 / 3 / 6", `${pipeline.copies} / ${pipeline.stored} / ${pipeline.dropped}`],
    ["pipeline: the stopped plan change finished by the next copy", "yes", finishedByNextCopy ? "yes" : "no"],
    ["pipeline: the late cancellation", "ignored", `${cancel?.status ?? "missing"}`],
    ["pipeline: plan and balance at the end", "pro, 500", `${pipeline.plan}, ${pipeline.balance}`],
    ["pipeline: Pro allowance granted", "once", pipeline.grants === 1 ? "once" : `${pipeline.grants} times`],
    ["pipeline: the plan change's result", "plan set to pro, Pro allowance already granted", planEvent?.result ?? "missing"],
  ];
  return rows.map(([label, expected, actual]) => ({ label, expected, actual, ok: expected === actual }));
}
