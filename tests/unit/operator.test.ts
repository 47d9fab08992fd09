import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { readNote, readSessionCookie, signNote, signSessionToken, newToken } from "../../lib/auth/tokens";
import { checkOperatorToken, checkSetupToken, discardSetupToken, loadOperatorSecrets, readSetupToken } from "../../lib/ops/operator";
import { tempDataDir } from "../contract/engines";

describe("operator secrets", () => {
  test("the token is made once, stored readable only by its owner, and kept across starts", () => {
    const dir = tempDataDir();
    const first = loadOperatorSecrets(dir);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^tb_op_[A-Za-z0-9_-]{32}$/);
    expect(fs.statSync(path.join(dir, "operator-token")).mode & 0o777).toBe(0o600);
    const second = loadOperatorSecrets(dir);
    expect(second.created).toBe(false);
    expect(second.token).toBe(first.token);
    expect(checkOperatorToken(second, first.token)).toBe(true);
    expect(checkOperatorToken(second, first.token + "x")).toBe(false);
    expect(checkOperatorToken(second, undefined)).toBe(false);
  });

  test("the setup token is printed once, kept 0600 until used, and never made again once used", () => {
    const dir = tempDataDir();
    const first = loadOperatorSecrets(dir);
    expect(first.createdSetupToken).toMatch(/^tb_setup_[A-Za-z0-9_-]{32}$/);
    expect(fs.statSync(first.setupTokenFile).mode & 0o777).toBe(0o600);
    const again = loadOperatorSecrets(dir);
    expect(again.createdSetupToken).toBeNull(); // not printed twice
    expect(readSetupToken(again)).toBe(first.createdSetupToken);
    expect(checkSetupToken(again, first.createdSetupToken)).toBe(true);
    expect(checkSetupToken(again, `${first.createdSetupToken}x`)).toBe(false);
    discardSetupToken(again);
    expect(checkSetupToken(again, first.createdSetupToken)).toBe(false);
    const later = loadOperatorSecrets(dir);
    expect(later.createdSetupToken).toBeNull();
    expect(readSetupToken(later)).toBeNull();
  });
});

describe("signed cookies", () => {
  const secret = "s".repeat(43);
  test("a session cookie carries its token and is refused when tampered with or signed by another secret", () => {
    const token = newToken();
    const value = signSessionToken(secret, token);
    expect(readSessionCookie(secret, value)).toBe(token);
    const [v, t, mac] = value.split(".") as [string, string, string];
    expect(readSessionCookie(secret, `${v}.${newToken()}.${mac}`)).toBeNull();
    expect(readSessionCookie(secret, `${v}.${t}.${mac.slice(0, -2)}AA`)).toBeNull();
    expect(readSessionCookie(secret, `v1.${t}.${mac}`)).toBeNull();
    expect(readSessionCookie("o".repeat(43), value)).toBeNull();
    expect(readSessionCookie(secret, undefined)).toBeNull();
    expect(readSessionCookie(secret, "x".repeat(10_000))).toBeNull();
  });

  test("a note expires, and a changed one is refused", () => {
    const value = signNote(secret, '{"kind":"setup"}', 2_000);
    expect(readNote(secret, value, 1_000)).toBe('{"kind":"setup"}');
    expect(readNote(secret, value, 2_000)).toBeNull();
    const [payload, , mac] = value.split(".");
    expect(readNote(secret, `${payload}.9999999.${mac}`, 1_000)).toBeNull();
  });
});
