/**
 * kill -9 in the middle of a write load loses no script whose caller was told
 * it committed, and the database file stays sound. Real processes, real
 * SIGKILL, the same data folder reopened (its stale lock taken over).
 */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { tempDataDir } from "../contract/engines";

describe("crash safety", () => {
  test("every commit a caller heard of survives SIGKILL; integrity_check answers ok; the engine reopens", async () => {
    const dataDir = tempDataDir();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "writer-child.ts"), dataDir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const acknowledged: string[] = [];
    let buffer = "";
    await new Promise<void>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`writer exited early: ${code}`))));
      child.stdout!.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const line of lines) if (line.startsWith("c-")) acknowledged.push(line);
        // Kill well into the load, while 64 writers are mid-flight.
        if (acknowledged.length >= 3000 && !child.killed) child.kill("SIGKILL");
      });
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(3000);

    const raw = new Database(path.join(dataDir, "tollbooth.db"));
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    const stored = new Set((raw.prepare("SELECT name FROM accounts").all() as { name: string }[]).map((r) => r.name));
    raw.close();
    const lost = acknowledged.filter((name) => !stored.has(name));
    expect(lost).toEqual([]);

    const engine = new SqliteEngine({ dataDir });
    await engine.run(accounts.create, { name: "after-restart" });
    await engine.close();
  });
});
