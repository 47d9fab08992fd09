/**
 * The stand-in billing provider: the BillingProvider port over the standin.*
 * transaction scripts, so it is persistent on either engine. It behaves like
 * Kinde where Tollbooth can tell (absolute writes repeat safely, a 429 carries
 * a reset time, a missing scope is named, an unanswered read is unreadable)
 * and fails on purpose when an operator turns a fault switch on.
 */
import { calculateJwkThumbprint, createLocalJWKSet, errors, exportJWK, generateKeyPair, importJWK, type JWK, type JWTVerifyGetKey } from "jose";
import { isAppError } from "../errors";
import type { Engine } from "../engine/types";
import { ProviderError, type Agreement, type BillingProvider, type Limit, type ProviderAccount } from "../provider/port";
import * as standin from "./scripts";

export const STANDIN_JWKS_PATH = "/api/standin/.well-known/jwks";
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

export interface StandinProviderOptions {
  /** How long a call waits for an answer when the "stop answering" switch is on. */
  callTimeoutMs?: number;
  /** How the provider waits (tests pass one that does not sleep). */
  wait?: (ms: number) => Promise<void>;
  /** Where the key set is published (default: this server's STANDIN_JWKS_PATH). */
  keySetUrl?: string;
}

type Refusal =
  | { outcome: "hang" }
  | { outcome: "rate_limited"; resetSeconds: number }
  | { outcome: "not_allowed"; scope: string }
  | { outcome: "failed" }
  | { outcome: "not_found"; message: string };

export interface StandinSigner {
  kid: string;
  privateKey: CryptoKey;
}

export class StandinProvider implements BillingProvider {
  readonly name = "standin" as const;
  private readonly callTimeoutMs: number;
  private readonly wait: (ms: number) => Promise<void>;
  private signer: Promise<StandinSigner> | null = null;
  private keySet: Promise<ReturnType<typeof createLocalJWKSet>> | null = null;

  constructor(
    private readonly engine: Pick<Engine, "run">,
    private readonly options: StandinProviderOptions = {},
  ) {
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    this.wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async readLimit(account: ProviderAccount, featureCode: string): Promise<Limit> {
    const result = await this.call(() => this.engine.run(standin.readLimit, { accountId: account.accountId, featureCode }));
    if (result.outcome !== "ok") return this.refuse(result, "read");
    return result.limitMax === null ? { kind: "unlimited" } : { kind: "limited", max: result.limitMax };
  }

  async setUsage(account: ProviderAccount, featureCode: string, cycle: string, total: number): Promise<void> {
    const result = await this.call(() =>
      this.engine.run(standin.setUsage, { accountId: account.accountId, featureCode, cycle, kind: "absolute", value: total }),
    );
    if (result.outcome !== "ok") return this.refuse(result, "write");
  }

  async readUsage(account: ProviderAccount, featureCode: string, cycle: string): Promise<number> {
    const result = await this.call(() => this.engine.run(standin.readUsage, { accountId: account.accountId, featureCode, cycle }));
    if (result.outcome !== "ok") return this.refuse(result, "read");
    return result.total;
  }

  async currentAgreement(account: ProviderAccount): Promise<Agreement | null> {
    const result = await this.call(() => this.engine.run(standin.currentAgreement, { accountId: account.accountId }));
    if (result.outcome === "not_found") return null;
    if (result.outcome !== "ok") return this.refuse(result, "read");
    const { id, planCode, currentPeriodStartMs } = result.agreement;
    return { id, planCode, currentPeriodStartMs };
  }

  webhookKeys(): JWTVerifyGetKey {
    return async (header, token) => {
      try {
        return await (await this.loadKeySet(false))(header, token);
      } catch (error) {
        // A kid we have not seen: the key may have been made after the set was loaded.
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        return (await this.loadKeySet(true))(header, token);
      }
    };
  }

  webhookKeySetUrl(): string {
    return this.options.keySetUrl ?? STANDIN_JWKS_PATH;
  }

  /** The published key set, making the signing key on first use. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.signingKey();
    const { keys } = await this.engine.run(standin.publicKeys, {});
    return { keys: keys.map((k) => JSON.parse(k) as JWK) };
  }

  /** The key webhooks are signed with: made once, kept in the stand-in's table, shared by every server on the database. */
  signingKey(): Promise<StandinSigner> {
    this.signer ??= this.loadOrMakeSigner().catch((error: unknown) => {
      this.signer = null;
      throw error;
    });
    return this.signer;
  }

  private async loadOrMakeSigner(): Promise<StandinSigner> {
    let stored = await this.engine.run(standin.signingKey, {});
    if (!stored) {
      const pair = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
      const publicJwk = await exportJWK(pair.publicKey);
      const kid = await calculateJwkThumbprint(publicJwk);
      const privateJwk = await exportJWK(pair.privateKey);
      stored = await this.engine.run(standin.installSigningKey, {
        kid,
        publicJwk: JSON.stringify({ ...publicJwk, kid, alg: "RS256", use: "sig" }),
        privateJwk: JSON.stringify({ ...privateJwk, kid, alg: "RS256" }),
      });
      this.keySet = null;
    }
    const privateKey = (await importJWK(JSON.parse(stored.privateJwk) as JWK, "RS256")) as CryptoKey;
    return { kid: stored.kid, privateKey };
  }

  private loadKeySet(reload: boolean): Promise<ReturnType<typeof createLocalJWKSet>> {
    if (reload || !this.keySet) {
      this.keySet = this.engine
        .run(standin.publicKeys, {})
        .then(({ keys }) => createLocalJWKSet({ keys: keys.map((k) => JSON.parse(k) as JWK) }))
        .catch((error: unknown) => {
          this.keySet = null;
          throw error;
        });
    }
    return this.keySet;
  }

  /** Bad arguments are the caller's bug, but they still come out as a ProviderError, as Kinde's 400 would. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isAppError(error) && error.code === "invalid_input") throw new ProviderError("rejected", `The stand-in refused the request: ${error.message}`);
      throw error;
    }
  }

  private async refuse(result: Refusal, kind: "read" | "write"): Promise<never> {
    switch (result.outcome) {
      case "hang":
        await this.wait(this.callTimeoutMs);
        throw new ProviderError(
          kind === "read" ? "unreadable" : "retry_later",
          `The stand-in did not answer within ${this.callTimeoutMs} ms (its "stop answering" switch is on).`,
        );
      case "rate_limited":
        throw new ProviderError(
          "retry_later",
          `The stand-in answered 429 Too Many Requests; RateLimit-Reset: ${result.resetSeconds} s.`,
          result.resetSeconds * 1000,
        );
      case "not_allowed":
        throw new ProviderError("not_allowed", `The stand-in refused the call: the application lacks the scope ${result.scope}.`, undefined, {
          scope: result.scope,
        });
      case "failed":
        throw new ProviderError("retry_later", `The stand-in failed the meter write (its "fail the next writes" switch is on).`);
      case "not_found":
        throw new ProviderError("not_found", result.message);
    }
  }
}
