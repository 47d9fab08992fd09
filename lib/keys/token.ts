/** Making and hashing API keys (Node side: the key never reaches a script, only its hash). */
import { createHash, randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "tb_live_";

export interface NewApiKey {
  token: string;
  hash: string;
  prefix: string;
  last4: string;
}

export function generateApiKey(): NewApiKey {
  const token = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { token, hash: hashApiKey(token), prefix: token.slice(0, API_KEY_PREFIX.length + 4), last4: token.slice(-4) };
}

export function hashApiKey(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function looksLikeApiKey(token: string): boolean {
  return /^tb_live_[A-Za-z0-9_-]{32}$/.test(token);
}
