/**
 * The store port over Convex's ctx.db. Every method is one indexed read or
 * one write; system fields (_id, _creationTime) never leave this file.
 */
import type { GenericDatabaseWriter } from "convex/server";
import type { Account, AccountsRepo } from "../../lib/accounts/repo";
import type { Store } from "../../lib/store/port";
import type { DataModel } from "../_generated/dataModel";

type Db = GenericDatabaseWriter<DataModel>;

function strip<T extends { _id: unknown; _creationTime: unknown }>(doc: T): Omit<T, "_id" | "_creationTime"> {
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}

export function createConvexStore(db: Db): Store {
  return { accounts: accountsRepo(db) };
}

function accountsRepo(db: Db): AccountsRepo {
  const byId = (id: string) =>
    db
      .query("accounts")
      .withIndex("by_account_id", (q) => q.eq("id", id))
      .unique();
  return {
    async insert(account) {
      await db.insert("accounts", account);
    },
    async get(id) {
      const doc = await byId(id);
      return doc ? (strip(doc) as Account) : null;
    },
    async getByKindeCustomerId(kindeCustomerId) {
      const doc = await db
        .query("accounts")
        .withIndex("by_kinde_customer_id", (q) => q.eq("kindeCustomerId", kindeCustomerId))
        .unique();
      return doc ? (strip(doc) as Account) : null;
    },
    async list({ limit, afterId }) {
      const docs = await db
        .query("accounts")
        .withIndex("by_account_id", (q) => (afterId === undefined ? q : q.gt("id", afterId)))
        .take(limit);
      return docs.map((d) => strip(d) as Account);
    },
    async patch(id, patch) {
      const doc = await byId(id);
      if (!doc) throw new Error(`Invariant broken: patch of missing account ${id}`);
      const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      await db.patch(doc._id, fields);
    },
  };
}
