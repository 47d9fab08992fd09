/**
 * `npm run dev:kinde-fake`: the fake Kinde server and the app wired to it, so
 * the real Kinde path (M2M token, entitlements, agreements, meter writes and
 * reads, webhook keys) can be watched end to end on one machine, with no
 * Kinde account. The app gets TOLLBOOTH_PROVIDER=kinde and
 * KINDE_DOMAIN=http://127.0.0.1:<fake port>, and its own data folder
 * (.tollbooth-kinde-fake) so your normal data is never touched.
 *
 *   npm run dev:kinde-fake            # app on a free port (or PORT=3100)
 */
import { spawn } from "node:child_process";
import { freePort } from "./lib/net";
import path from "node:path";
import { FakeKinde } from "../tests/fakes/kinde-server";

const CLIENT = { clientId: "dev_fake_m2m_client", clientSecret: "dev_fake_m2m_secret_not_a_real_one" };

async function main() {
  const fake = await new FakeKinde({ clients: [CLIENT], control: true, port: process.env.KINDE_FAKE_PORT ? Number(process.env.KINDE_FAKE_PORT) : 0 }).start();
  // Fixed customer ids and cycle anchor (the 20th, 15:29 UTC), so accounts you connect to them keep working
  // across restarts; the fake itself forgets its meter when it stops.
  const anchorMs = Date.UTC(2026, 0, 20, 15, 29);
  const free = fake.addCustomer({ tokens: 100_000, clicks: 1_000 }, { customerId: "customer_demo_free", planCode: "free", anchorMs });
  const pro = fake.addCustomer({ tokens: null, clicks: 100_000 }, { customerId: "customer_demo_pro", planCode: "pro", anchorMs });

  const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.resolve(process.env.TOLLBOOTH_DATA_DIR ?? ".tollbooth-kinde-fake");
  const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "dev", "-p", String(port), "-H", "127.0.0.1"], {
    stdio: "inherit",
    env: {
      ...process.env,
      TOLLBOOTH_PROVIDER: "kinde",
      KINDE_DOMAIN: fake.url,
      KINDE_M2M_CLIENT_ID: CLIENT.clientId,
      KINDE_M2M_CLIENT_SECRET: CLIENT.clientSecret,
      TOLLBOOTH_DATA_DIR: dataDir,
      TOLLBOOTH_DIST_DIR: ".next-kinde-fake",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });

  const f = fake.url;
  console.log(
    [
      "",
      `  Fake Kinde    ${f}   (state: curl ${f}/__fake/state)`,
      `  Tollbooth     ${appUrl}   (provider: kinde; data in ${dataDir})`,
      "",
      "  Customers on the fake:",
      `    customer_demo_free   agreement ${free.agreementId}   tokens 100,000  clicks 1,000`,
      `    customer_demo_pro    agreement ${pro.agreementId}   tokens unlimited  clicks 100,000`,
      "",
      "  Try it:",
      "    1. Sign in with the operator token the app prints below, open Accounts, and create an account",
      "       with Kinde customer id customer_demo_free.",
      "    2. Open Provider, pick the account, press Check: the agreement, limits and meter come from the fake.",
      `    3. Throttle the fake and check again:  curl -XPOST ${f}/__fake/throttle -d '{"requests":3,"resetSeconds":20}'`,
      `       Stop it answering:                 curl -XPOST ${f}/__fake/hang -d '{}'   (undo: ${f}/__fake/stop-hanging)`,
      `       Expire its tokens (401, renewal):  curl -XPOST ${f}/__fake/expire-tokens`,
      `    4. Send a signed plan change to the app's webhook intake:`,
      `       curl -XPOST ${f}/__fake/webhooks -d '{"url":"${appUrl}/api/webhooks/kinde","copies":3,"events":[{"type":"customer.plan_changed","data":{"customer_id":"customer_demo_free","customer_type":"user","plan":{"key":"pro"}}}]}'`,
      "",
    ].join("\n"),
  );

  const stop = async () => {
    child.kill("SIGTERM");
    await fake.close();
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
  child.once("exit", (code) => {
    void fake.close().then(() => process.exit(code ?? 0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
