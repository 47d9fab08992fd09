import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { checkOperatorToken, checkSessionCookie, loadOperatorSecrets, makeSessionCookie, SESSION_TTL_MS } from "../../lib/ops/operator";
import { tempDataDir } from "../contract/engines";

describe("operator access", () => {
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

  test("a session cookie is accepted until it expires, and a tampered one never", () => {
    const secrets = loadOperatorSecrets(tempDataDir());
    const now = 1_800_000_000_000;
    const { value } = makeSessionCookie(secrets, now);
    expect(checkSessionCookie(secrets, value, now + 1000)).toBe(true);
    expect(checkSessionCookie(secrets, value, now + SESSION_TTL_MS)).toBe(false);
    const [v, exp, mac] = value.split(".");
    expect(checkSessionCookie(secrets, `${v}.${Number(exp) + 1_000_000}.${mac}`, now)).toBe(false);
    expect(checkSessionCookie(secrets, `${v}.${exp}.${mac!.slice(0, -2)}AA`, now)).toBe(false);
    const other = loadOperatorSecrets(tempDataDir());
    expect(checkSessionCookie(other, value, now)).toBe(false);
  });
});
