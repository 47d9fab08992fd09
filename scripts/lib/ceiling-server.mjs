// The machine's ceiling for a redirect that writes durably: a bare node:http server doing one SQLite
// insert per request (WAL, synchronous=FULL, autocommit: one transaction and one fsync each) and
// answering 302. No validation, no framework, no group commit. Used by scripts/bench/redirects.ts.
//   node scripts/lib/ceiling-server.mjs <data folder>     → prints "listening <port>"
// GET /api/v1/links/<code> answers the row count in the shape the clicks load script reads back.
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const dir = process.argv[2];
fs.mkdirSync(dir, { recursive: true });
const db = new Database(path.join(dir, "ceiling.db"));
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.exec("CREATE TABLE IF NOT EXISTS clicks (key TEXT PRIMARY KEY, code TEXT NOT NULL, at_ms INTEGER NOT NULL) STRICT");
const insert = db.prepare("INSERT INTO clicks (key, code, at_ms) VALUES (?, ?, ?)");
const count = db.prepare("SELECT COUNT(*) FROM clicks WHERE code = ?").pluck();

const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  if (url.startsWith("/r/")) {
    const key = `click_${randomUUID()}`;
    insert.run(key, url.slice(3), Date.now());
    res.writeHead(302, { location: "https://example.com/", "cache-control": "no-store", "x-click-key": key });
    res.end();
  } else if (url.startsWith("/api/v1/links/")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ stats: { clicks: count.get(url.slice("/api/v1/links/".length)), cycle: "ceiling" } }));
  } else {
    res.writeHead(404);
    res.end();
  }
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
process.on("SIGTERM", () => {
  server.close();
  db.close();
  process.exit(0);
});
