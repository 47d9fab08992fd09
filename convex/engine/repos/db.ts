import type { GenericDatabaseWriter, WithoutSystemFields } from "convex/server";
import type { DataModel, Doc, TableNames } from "../../_generated/dataModel";

export type Db = GenericDatabaseWriter<DataModel>;

/** Drops Convex's system fields so rows look the same as on the SQLite engine. */
export function strip<T extends { _id: unknown; _creationTime: unknown }>(doc: T): Omit<T, "_id" | "_creationTime"> {
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}

/**
 * The repositories' bounded read: at most min(limit, cap) rows of an indexed
 * query, as plain rows. Every list a repository offers has a cap, so no
 * caller can make a transaction read a whole table.
 */
export async function takeRows<R>(query: { take(n: number): Promise<{ _id: unknown; _creationTime: unknown }[]> }, limit: number, cap: number): Promise<R[]> {
  const docs = await query.take(Math.min(limit, cap));
  return docs.map((d) => strip(d) as R);
}

/** Put by key: replaces the row the caller found by its index, or inserts one. */
export async function putRow<T extends TableNames>(db: Db, table: T, found: Doc<T> | null, value: WithoutSystemFields<Doc<T>>): Promise<void> {
  // Convex's generic insert/replace types do not resolve for a table parameter; callers are typed by the signature.
  if (found) await db.replace(found._id, value as never);
  else await db.insert(table, value as never);
}
