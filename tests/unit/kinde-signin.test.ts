import { describe, expect, test } from "vitest";
import { decideKindeSignIn, pendingCookieHeader, readPending } from "../../lib/auth/kinde";
import { sha256Hex } from "../../lib/auth/tokens";

const who = { id: "kp_1", email: "ana@example.com", name: "Ana" };

describe("who a Kinde sign-in makes an operator", () => {
  test.each([
    ["a linked operator signs in", { id: "usr_a", role: "operator", disabledAtMs: null }, null, { action: "sign_in", userId: "usr_a" }],
    ["a disabled operator is refused", { id: "usr_a", role: "operator", disabledAtMs: 5 }, null, { action: "refuse", reason: "disabled" }],
    ["a linked member is not an operator", { id: "usr_m", role: "member", disabledAtMs: null }, { kind: "setup" }, { action: "refuse", reason: "not_operator" }],
    ["a stranger with no note is refused", null, null, { action: "refuse", reason: "not_operator" }],
    ["a stranger with the setup note becomes the first operator", null, { kind: "setup" }, { action: "setup" }],
    ["a stranger with an invite note accepts it", null, { kind: "invite", token: "tok" }, { action: "accept_invite", inviteTokenHash: sha256Hex("tok") }],
  ] as const)("%s", (_title, existing, pending, expected) => {
    expect(decideKindeSignIn(who, existing, pending)).toEqual(expected);
  });

  test("the pending note survives the round trip and is refused once expired or from another secret", () => {
    const secret = "k".repeat(43);
    const header = pendingCookieHeader(secret, { kind: "invite", token: "abc" }, 1_000, true);
    expect(header).toMatch(/HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    const value = header.split(";")[0]!.split("=")[1];
    expect(readPending(secret, value, 2_000)).toEqual({ kind: "invite", token: "abc" });
    expect(readPending(secret, value, 1_000 + 600_001)).toBeNull();
    expect(readPending("x".repeat(43), value, 2_000)).toBeNull();
  });
});
