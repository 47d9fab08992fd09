/**
 * The worker client (lib/client) against the real handlers, in process: its
 * fetch is lib/api/routes.ts's dispatch, with a switch that loses answers
 * after the server acted (the hard case for retries).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dispatch } from "../../lib/api/routes";
import { GateClient, GateRefusedError, JobCappedError } from "../../lib/client/gate";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

/** A fetch into the handlers; `loseNext` answers the next N requests with a network error after the server handled them. */
function inProcessFetch() {
  const state = { loseNext: 0, requests: 0 };
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    state.requests++;
    const response = await dispatch(new Request(input, init));
    if (!response) return new Response("not found", { status: 404 });
    if (state.loseNext > 0) {
      state.loseNext--;
      throw new TypeError("fetch failed (the answer was lost)");
    }
    return response;
  }) as typeof fetch;
  return { fn, state };
}

async function openAccount(tokens: number | null) {
  const response = await dispatch(
    new Request("http://127.0.0.1/api/v1/accounts", {
      method: "POST",
      headers: { authorization: `Bearer ${api.operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Client Co", limits: { tokens } }),
    }),
  );
  const body = (await response!.json()) as { account: { id: string }; apiKey: { key: string } };
  return { accountId: body.account.id, key: body.apiKey.key };
}

function client(key: string, fetchFn: typeof fetch) {
  return new GateClient({ url: "http://127.0.0.1", apiKey: key, fetch: fetchFn, retryWaitMs: () => 0 });
}

describe("the worker client", () => {
  test("withHold settles completed with what was charged when the work returns", async () => {
    const { accountId, key } = await openAccount(100_000);
    const { fn } = inProcessFetch();
    const gate = client(key, fn);
    const value = await gate.withHold({ key: "w1", estimate: 40_000 }, async (job) => {
      for (let i = 0; i < 3; i++) await job.charge(10_400);
      return job.used;
    });
    expect(value).toBe(31_200);
    expect((await gate.budget(accountId)).budget).toMatchObject({ used: 31_200, held: 0, remaining: 68_800 });
  });

  test("withHold settles failed with the usage so far when the work throws, and rethrows", async () => {
    const { accountId, key } = await openAccount(100_000);
    const gate = client(key, inProcessFetch().fn);
    let jobId = "";
    await expect(
      gate.withHold({ key: "w2", estimate: 40_000 }, async (job) => {
        jobId = job.id;
        await job.charge(24_000);
        throw new Error("the model timed out");
      }),
    ).rejects.toThrow("the model timed out");
    expect((await gate.getJob(jobId)).job).toMatchObject({ status: "failed", charged: 24_000, released: 16_000 });
    expect((await gate.budget(accountId)).budget).toMatchObject({ used: 24_000, held: 0 });
  });

  test("a step past the hold stops the work with a typed error; the job is capped at its hold", async () => {
    const { key } = await openAccount(100_000);
    const gate = client(key, inProcessFetch().fn);
    let steps = 0;
    const error = await gate
      .withHold({ key: "w3", estimate: 10_000 }, async (job) => {
        for (;;) {
          steps++;
          await job.charge(3_000);
        }
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobCappedError);
    expect(steps).toBe(4);
    expect((error as JobCappedError).job).toMatchObject({ status: "capped", charged: 10_000 });
  });

  test("extend grows the hold when there is room and answers false when there is not", async () => {
    const { key } = await openAccount(30_000);
    const gate = client(key, inProcessFetch().fn);
    await gate.withHold({ key: "w4", estimate: 10_000 }, async (job) => {
      expect(await job.extend(15_000)).toBe(true);
      expect(job.held).toBe(25_000);
      expect(await job.extend(10_000)).toBe(false);
      expect(job.held).toBe(25_000);
      await job.charge(25_000);
    });
  });

  test("a refusal is a GateRefusedError saying what is left", async () => {
    const { key } = await openAccount(50_000);
    const gate = client(key, inProcessFetch().fn);
    await gate.reserve({ key: "big", estimate: 40_000 });
    const error = await gate.reserve({ key: "second", estimate: 40_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateRefusedError);
    expect(error).toMatchObject({ status: 402, remaining: 10_000, reason: "The job needs 40000 and 10000 is left." });
  });

  test("lost answers are retried with the same key and step: one hold, each step charged once", async () => {
    const { accountId, key } = await openAccount(100_000);
    const { fn, state } = inProcessFetch();
    const gate = client(key, fn);
    await gate.withHold({ key: "lossy", estimate: 40_000 }, async (job) => {
      expect((await gate.budget(accountId)).budget.held).toBe(40_000);
      state.loseNext = 1; // this charge is applied, its answer lost, and sent again
      await job.charge(5_000);
      state.loseNext = 2;
      await job.charge(5_000);
      expect(job.used).toBe(10_000);
      state.loseNext = 1; // the settle too
    });
    expect((await gate.budget(accountId)).budget).toMatchObject({ used: 10_000, held: 0 });
    expect(state.requests).toBeGreaterThan(8);

    state.loseNext = 1; // a reserve whose answer is lost: the retry finds the same job
    const first = await gate.reserve({ key: "lossy-2", estimate: 1_000 });
    expect(first.replayed).toBe(true);
    expect((await gate.budget(accountId)).budget.held).toBe(1_000);
  });

  test("the client folder imports nothing from the server: only fetch", () => {
    const dir = path.resolve("lib/client");
    for (const file of fs.readdirSync(dir)) {
      const source = fs.readFileSync(path.join(dir, file), "utf8");
      const imports = [...source.matchAll(/(?:import|export)[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const target of imports) expect(target, `${file} imports ${target}`).toMatch(/^\.\/[^/]+$/);
    }
  });
});
