import { describe, expect, test } from "vitest";
import { ConfigError, readConfig } from "../../lib/config";

describe("config", () => {
  test("an empty environment gives the two-command defaults: embedded engine, stand-in provider", () => {
    const config = readConfig({});
    expect(config).toMatchObject({ engine: "sqlite", provider: "standin", schedulerEnabled: true, kinde: null, convexUrl: null });
    expect(config.dataDir).toMatch(/\.tollbooth$/);
  });

  test("CONVEX_URL selects Convex, and then a server key is required", () => {
    expect(() => readConfig({ CONVEX_URL: "https://happy-otter-123.convex.cloud" })).toThrow(/TOLLBOOTH_SERVER_KEY: expected a secret of at least 32 characters/);
    const config = readConfig({ CONVEX_URL: "https://happy-otter-123.convex.cloud", TOLLBOOTH_SERVER_KEY: "k".repeat(32) });
    expect(config.engine).toBe("convex");
  });

  test("each bad value is named with what it expects", () => {
    try {
      readConfig({ TOLLBOOTH_ENGINE: "postgres", TOLLBOOTH_PROVIDER: "stripe", CONVEX_URL: "not a url" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/TOLLBOOTH_ENGINE/);
      expect(message).toMatch(/TOLLBOOTH_PROVIDER/);
      expect(message).toMatch(/CONVEX_URL/);
    }
  });

  test("the Kinde provider needs its domain and M2M credentials", () => {
    expect(() => readConfig({ TOLLBOOTH_PROVIDER: "kinde" })).toThrow(/KINDE_DOMAIN[\s\S]*KINDE_M2M_CLIENT_ID[\s\S]*KINDE_M2M_CLIENT_SECRET/);
    const config = readConfig({
      TOLLBOOTH_PROVIDER: "kinde",
      KINDE_DOMAIN: "https://acme.kinde.com/",
      KINDE_M2M_CLIENT_ID: "id",
      KINDE_M2M_CLIENT_SECRET: "secret",
    });
    expect(config.kinde).toEqual({
      domain: "https://acme.kinde.com",
      clientId: "id",
      clientSecret: "secret",
      audience: "https://acme.kinde.com/api",
      jwksUrl: "https://acme.kinde.com/.well-known/jwks",
      pageSize: 100,
      meterRead: { path: "/api/v1/billing/meter_usage", allCyclesParam: "all_cycles=true", extraParams: "" },
    });
    expect(config.providerTimeoutMs).toBe(10_000);
  });

  test("the unpublished meter read can be moved or turned off, and timeouts and page size are bounded", () => {
    const base = { TOLLBOOTH_PROVIDER: "kinde", KINDE_DOMAIN: "http://127.0.0.1:4455", KINDE_M2M_CLIENT_ID: "id", KINDE_M2M_CLIENT_SECRET: "s" };
    expect(readConfig({ ...base, KINDE_METER_READ_PATH: "off" }).kinde!.meterRead).toBeNull();
    expect(readConfig({ ...base, KINDE_METER_READ_PATH: "/api/v1/billing/meter_usage_records", KINDE_METER_READ_PARAMS: "page_size=500" }).kinde!.meterRead).toEqual({
      path: "/api/v1/billing/meter_usage_records",
      allCyclesParam: "all_cycles=true",
      extraParams: "page_size=500",
    });
    expect(readConfig({ ...base, TOLLBOOTH_PROVIDER_TIMEOUT_MS: "2500" }).providerTimeoutMs).toBe(2_500);
    expect(() => readConfig({ ...base, KINDE_PAGE_SIZE: "501" })).toThrow(/KINDE_PAGE_SIZE/);
    expect(() => readConfig({ ...base, TOLLBOOTH_PROVIDER_TIMEOUT_MS: "soon" })).toThrow(/TOLLBOOTH_PROVIDER_TIMEOUT_MS/);
    expect(() => readConfig({ ...base, KINDE_METER_READ_PATH: "meter" })).toThrow(/KINDE_METER_READ_PATH/);
  });
});
