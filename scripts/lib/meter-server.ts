/**
 * The meter's HTTP surface without Next.js: the same route handlers
 * (app/r/[code]/route.ts, the links, accounts and report-now routes) on a
 * plain node:http server. The crash test kills it with SIGKILL; the redirect
 * benchmark measures it beside `next start` and the bare ceiling.
 *
 *   npx tsx scripts/lib/meter-server.ts [port]    (TOLLBOOTH_DATA_DIR picks the data folder)
 *
 * Prints "listening <port>" once it accepts connections.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as linksRoute from "../../app/api/v1/links/route";
import * as linkRoute from "../../app/api/v1/links/[code]/route";
import * as reportRoute from "../../app/api/v1/meter/report/route";
import * as redirectRoute from "../../app/r/[code]/route";
import { nodeListener, type FetchHandler } from "../../lib/http/node-server";
import { getRuntime } from "../../lib/runtime";

const port = Number(process.argv[2] ?? 0);
getRuntime(); // open the database (and make the operator token) before the first request

const server = http.createServer(
  nodeListener([
    { method: "GET", path: /^\/r\/(?<code>[^/]+)$/, handler: redirectRoute.GET },
    { method: "HEAD", path: /^\/r\/(?<code>[^/]+)$/, handler: redirectRoute.HEAD },
    { method: "POST", path: /^\/api\/v1\/accounts$/, handler: accountsRoute.POST as FetchHandler },
    { method: "POST", path: /^\/api\/v1\/links$/, handler: linksRoute.POST as FetchHandler },
    { method: "GET", path: /^\/api\/v1\/links\/(?<code>[^/]+)$/, handler: linkRoute.GET as FetchHandler },
    { method: "POST", path: /^\/api\/v1\/meter\/report$/, handler: reportRoute.POST as FetchHandler },
  ]),
);
server.keepAliveTimeout = 30_000;
server.listen(port, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
const stop = () => {
  server.close();
  void getRuntime()
    .engine.close()
    .then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
