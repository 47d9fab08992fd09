import type Database from "better-sqlite3";

/**
 * A statement prepared on first use. A read-only connection cannot prepare
 * writes, and most repositories are built on both connections.
 */
export function lazyStatement(make: () => Database.Statement): () => Database.Statement {
  let value: Database.Statement | undefined;
  return () => (value ??= make());
}

/**
 * A patch by id that writes only the fields given (undefined ones are left
 * alone), with one prepared statement per set of fields. `columns` maps each
 * patchable field to its column.
 */
export function patcher<P extends object>(db: Database.Database, table: string, columns: Record<keyof P, string>): (id: string, patch: P) => void {
  const statements = new Map<string, Database.Statement>();
  return (id, patch) => {
    const keys = (Object.keys(patch) as (keyof P & string)[]).filter((k) => patch[k] !== undefined).sort();
    if (keys.length === 0) return;
    const cacheKey = keys.join(",");
    let statement = statements.get(cacheKey);
    if (!statement) {
      statement = db.prepare(`UPDATE ${table} SET ${keys.map((k) => `${columns[k]} = @${k}`).join(", ")} WHERE id = @id`);
      statements.set(cacheKey, statement);
    }
    statement.run({ ...Object.fromEntries(keys.map((k) => [k, patch[k]])), id });
  };
}
