import type { GenericDatabaseWriter } from "convex/server";
import type { DataModel } from "../../_generated/dataModel";

export type Db = GenericDatabaseWriter<DataModel>;

/** Drops Convex's system fields so rows look the same as on the SQLite engine. */
export function strip<T extends { _id: unknown; _creationTime: unknown }>(doc: T): Omit<T, "_id" | "_creationTime"> {
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}
