/** Accounts over Convex (table `accounts` in convex/tables/accounts.ts). */
import type { Account, AccountsRepo } from "../../../lib/accounts/repo";
import { strip, type Db } from "./db";

export function accountsRepo(db: Db): AccountsRepo {
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
