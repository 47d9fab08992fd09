// The machine's ceiling for the benchmarks: a bare node:http server doing one SQLite write per request (WAL,
// autocommit: one transaction each), answering in the shapes the load client (scripts/load.mjs) reads, so the same
// client drives it and Tollbooth. No auth, no validation, no framework, no group commit: what this machine does with
// nothing in the way.
//   node scripts/bench/lib/bare-server.mjs <port> <dataDir> [FULL|NORMAL]
// FULL (the default) fsyncs every request's commit, as durable as the embedded engine; NORMAL fsyncs only at
// checkpoints, which leaves what the machine's CPU can do.
//  - GET /r/<code>: one click row (a random key, as the ledger's), then 302 (scripts/bench/redirects.ts);
//  - GET /api/v1/links/<code>: the code's click count in the shape the clicks mode reads back (no write);
//  - GET /api/ping: 200, no write (readiness);
//  - anything else (the jobs API of scripts/bench/gate.ts): one row with the path and body, then the API's shape.
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";

const [port, dataDir, synchronous = "FULL"] = process.argv.slice(2);
const db = new Database(path.join(dataDir, "bare.db"));
db.pragma("journal_mode = WAL");
db.pragma(`synchronous = ${synchronous === "NORMAL" ? "NORMAL" : "FULL"}`);
db.exec("CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY, path TEXT NOT NULL, body TEXT NOT NULL, at_ms INTEGER NOT NULL)");
db.exec("CREATE TABLE IF NOT EXISTS clicks (key TEXT PRIMARY KEY, code TEXT NOT NULL, at_ms INTEGER NOT NULL) STRICT");
const insert = db.prepare("INSERT INTO writes (path, body, at_ms) VALUES (?, ?, ?)");
const insertClick = db.prepare("INSERT INTO clicks (key, code, at_ms) VALUES (?, ?, ?)");
const countClicks = db.prepare("SELECT COUNT(*) FROM clicks WHERE code = ?").pluck();
let n = 0;

function send(response, status, answer) {
  const text = JSON.stringify(answer);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function jobsApi(url, body, response) {
  insert.run(url, body, Date.now());
  if (url === "/api/v1/accounts") return send(response, 201, { account: { id: `acct_${++n}` }, apiKey: { key: "bare" } });
  if (url.endsWith("/keys")) return send(response, 201, { apiKey: { key: "bare" } });
  if (url === "/api/v1/jobs") return send(response, 201, { id: `job_${++n}`, status: "running" });
  if (url.endsWith("/charge")) return send(response, 200, { outcome: "charged", job: { status: "running" } });
  if (url.endsWith("/settle")) return send(response, 200, { outcome: "settled", job: { status: "completed" } });
  if (url.includes("/budget")) return send(response, 200, { budget: { limit: null, used: 0, held: 0 } });
  return send(response, 200, {});
}

const server = http.createServer((request, response) => {
  const url = request.url ?? "/";
  if (request.method === "GET" && url.startsWith("/r/")) {
    const key = `click_${randomUUID()}`;
    insertClick.run(key, url.slice(3), Date.now());
    response.writeHead(302, { location: "https://example.com/", "cache-control": "no-store", "x-click-key": key, "content-length": 0 });
    response.end();
    return;
  }
  if (request.method === "GET" && url.startsWith("/api/v1/links/")) {
    send(response, 200, { stats: { clicks: countClicks.get(url.slice("/api/v1/links/".length)), cycle: "bare" } });
    return;
  }
  if (url === "/api/ping") {
    response.writeHead(200, { "content-length": 2 });
    response.end("ok");
    return;
  }
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => jobsApi(url, body, response));
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => (db.close(), process.exit(0))));
