import { describe, expect, test } from "vitest";
import { hashPassword, needsRehash, parseHash, SCRYPT_PARAMS, verifyPassword } from "../../lib/auth/password";

describe("passwords (scrypt)", () => {
  test("the stated parameters: N = 2^15, r = 8, p = 1, 16-byte salt, 32-byte key", async () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const parsed = parseHash(stored)!;
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.key).toHaveLength(32);
  });

  test("the right password matches; a wrong one, a changed hash or a hash of another salt does not", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
    const other = await hashPassword("correct horse battery");
    expect(other).not.toBe(stored); // a fresh salt each time
    // Change the key's first character: all 6 of its bits are key bits (the last character's low bits are padding, so
    // changing only those would decode to the same key).
    const key = stored.slice(stored.lastIndexOf("$") + 1);
    const changed = `${stored.slice(0, stored.lastIndexOf("$") + 1)}${key[0] === "A" ? "B" : "A"}${key.slice(1)}`;
    expect(parseHash(changed)!.key).not.toEqual(parseHash(stored)!.key);
    expect(await verifyPassword("correct horse battery", changed)).toBe(false);
  });

  test("malformed or hostile hashes never match and never run an enormous scrypt", async () => {
    for (const bad of ["", "scrypt", "bcrypt$1$2$3$4$5", "scrypt$1048577$8$1$AAAA$AAAA", "scrypt$4194304$8$1$AAAA$AAAA", "scrypt$1000$8$1$AAAA$AAAA", "scrypt$16$8$1$AAAA$AAAA"]) {
      expect(await verifyPassword("x", bad)).toBe(false);
    }
  });

  test("a hash made with weaker parameters asks to be re-hashed", async () => {
    const weak = await hashPassword("correct horse battery", { N: 1024, r: 8, p: 1 });
    expect(await verifyPassword("correct horse battery", weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword("x"))).toBe(false);
  });
});
