/**
 * API keys, per account. Only a SHA-256 hash of the key is stored; the key
 * itself is shown once at creation. Written by keys.* scripts; read on every
 * API request to find whose key it is.
 */
export interface ApiKey {
  id: string; // key_…
  accountId: string;
  /** hex SHA-256 of the whole key; unique. */
  hash: string;
  /** The key's first characters and last four, for lists: "tb_live_AbCd" … "wxyz". */
  prefix: string;
  last4: string;
  createdAtMs: number;
  lastUsedAtMs: number | null;
  revokedAtMs: number | null;
  /** Requests a minute this key may make (a token bucket in the server process; lib/auth/rate-limit.ts). */
  ratePerMinute: number;
}

export interface ApiKeysRepo {
  insert(key: ApiKey): Promise<void>;
  get(id: string): Promise<ApiKey | null>;
  getByHash(hash: string): Promise<ApiKey | null>;
  /** Newest first, at most `limit` (≤ 100). */
  listByAccount(accountId: string, limit: number): Promise<ApiKey[]>;
  patch(id: string, patch: Partial<Pick<ApiKey, "lastUsedAtMs" | "revokedAtMs" | "ratePerMinute">>): Promise<void>;
}
