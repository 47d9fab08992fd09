import type Database from "better-sqlite3";

/**
 * A statement prepared on first use. A read-only connection cannot prepare
 * writes, and most repositories are built on both connections.
 */
export function lazyStatement(make: () => Database.Statement): () => Database.Statement {
  let value: Database.Statement | undefined;
  return () => (value ??= make());
}
