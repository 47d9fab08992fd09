import type { IdPrefix } from "./store/port";

/** Crockford base32: no I, L, O, U, so an id read aloud or copied by hand survives. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const ID_BODY_LENGTH = 20; // 100 bits of randomness

/**
 * A typed id: `<prefix>_<20 base32 chars>`. The random source is passed in so
 * that Convex (whose Math.random is seeded per mutation) and Node (crypto) each
 * use what their runtime allows.
 */
export function makeId(prefix: IdPrefix, randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(ID_BODY_LENGTH);
  let body = "";
  for (let i = 0; i < ID_BODY_LENGTH; i++) body += ALPHABET[bytes[i]! & 31];
  return `${prefix}_${body}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[${ALPHABET}]{${ID_BODY_LENGTH}}$`).test(id);
}
