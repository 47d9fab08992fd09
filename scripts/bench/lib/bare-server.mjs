// The ceiling for the gate benchmark: a bare node:http server doing one SQLite write per request (WAL,
// synchronous=FULL, the same durability as the embedded engine), answering the jobs API's shapes so the same
// load client drives it. No auth, no validation, no rules: what this machine does with nothing in the way.
//   node scripts/bench/lib/bare-server.mjs <port> <dataDir> [FULL|NORMAL]
// FULL (the default) fsyncs every request's commit, as durable as the embedded engine; NORMAL fsyncs only at
// checkpoints, which leaves what the machine's CPU can do.
import Database from "better-sqlite3";
import http from "node:http";
import path from "node:path";

const [port, dataDir, synchronous = "FULL"] = process.argv.slice(2);
const db = new Database(path.join(dataDir, "bare.db"));
db.pragma("journal_mode = WAL");
db.pragma(`synchronous = ${synchronous === "NORMAL" ? "NORMAL" : "FULL"}`);
db.exec("CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY, path TEXT NOT NULL, body TEXT NOT NULL, at_ms INTEGER NOT NULL)");
const insert = db.prepare("INSERT INTO writes (path, body, at_ms) VALUES (?, ?, ?)");
let n = 0;

const server = http.createServer((request, response) => {
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    insert.run(request.url, body, Date.now());
    const url = request.url ?? "/";
    let answer;
    let status = 200;
    if (url === "/api/v1/accounts") {
      status = 201;
      answer = { account: { id: `acct_${++n}` }, apiKey: { key: "bare" } };
    } else if (url.endsWith("/keys")) {
      status = 201;
      answer = { apiKey: { key: "bare" } };
    } else if (url === "/api/v1/jobs") {
      status = 201;
      answer = { id: `job_${++n}`, status: "running" };
    } else if (url.endsWith("/charge")) answer = { outcome: "charged", job: { status: "running" } };
    else if (url.endsWith("/settle")) answer = { outcome: "settled", job: { status: "completed" } };
    else if (url.includes("/budget")) answer = { budget: { limit: null, used: 0, held: 0 } };
    else answer = {};
    const text = JSON.stringify(answer);
    response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    response.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => (db.close(), process.exit(0))));
