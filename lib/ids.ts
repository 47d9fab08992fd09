import type { IdPrefix } from "./store/port";

/** Crockford base32: no I, L, O, U, so an id read aloud or copied by hand survives. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const ID_BODY_LENGTH = 20;
const TIME_CHARS = 10; // 50 bits of milliseconds: good until the year 37,000
const RANDOM_CHARS = ID_BODY_LENGTH - TIME_CHARS; // 50 bits of randomness per millisecond

/**
 * A typed id: `<prefix>_<20 base32 chars>`: 10 characters of creation time in
 * milliseconds, then 10 random ones (50 bits), like a ULID. Time first keeps a
 * table's new ids at the right edge of its indexes (a random id lands on a
 * random page, so every insert dirties another page and writes it to the WAL),
 * and ids sort by creation. The random source is passed in so that Convex
 * (whose Math.random is seeded per mutation) and Node (crypto) each use what
 * their runtime allows.
 */
export function makeId(prefix: IdPrefix, randomBytes: (n: number) => Uint8Array, nowMs: number = Date.now()): string {
  let body = "";
  let time = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < TIME_CHARS; i++) {
    body = ALPHABET[time % 32]! + body;
    time = Math.floor(time / 32);
  }
  const bytes = randomBytes(RANDOM_CHARS);
  for (let i = 0; i < RANDOM_CHARS; i++) body += ALPHABET[bytes[i]! & 31];
  return `${prefix}_${body}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[${ALPHABET}]{${ID_BODY_LENGTH}}$`).test(id);
}
