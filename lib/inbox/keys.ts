/**
 * The key set webhooks are verified against.
 *
 * SEAM: the provider part (branch `provider`) gives getRuntime().provider a
 * webhookKeys() (Kinde: the remote JWKS at ${KINDE_DOMAIN}/.well-known/jwks,
 * cached, refreshed on an unknown kid; the stand-in: its own key). Until it is
 * merged, intake reads the key set installed here.
 */
import type { JWTVerifyGetKey } from "jose";
import { AppError } from "../errors";

const KEY = Symbol.for("tollbooth.inbox.webhookKeys");
type Holder = { [KEY]?: JWTVerifyGetKey };

export function installWebhookKeys(keys: JWTVerifyGetKey | null): void {
  const holder = globalThis as Holder;
  if (keys) holder[KEY] = keys;
  else delete holder[KEY];
}

export function webhookKeys(): JWTVerifyGetKey {
  const keys = (globalThis as Holder)[KEY];
  if (!keys) throw new AppError("unavailable", "No webhook key set is configured yet, so no webhook can be verified.");
  return keys;
}
