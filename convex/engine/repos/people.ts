/** Users, sessions, invites and the first-run record over Convex (convex/tables/people.ts). */
import type { Invite, PeopleRepo, SetupRecord, Session, User } from "../../../lib/people/repo";
import { strip, type Db, takeRows } from "./db";

const defined = (patch: object) => Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));

export function peopleRepo(db: Db): PeopleRepo {
  const userDoc = (id: string) =>
    db
      .query("users")
      .withIndex("by_user_id", (q) => q.eq("id", id))
      .unique();
  const sessionDoc = (id: string) =>
    db
      .query("sessions")
      .withIndex("by_session_id", (q) => q.eq("id", id))
      .unique();
  const inviteDoc = (id: string) =>
    db
      .query("invites")
      .withIndex("by_invite_id", (q) => q.eq("id", id))
      .unique();
  return {
    async insertUser(user) {
      await db.insert("users", user);
    },
    async getUser(id) {
      const doc = await userDoc(id);
      return doc ? (strip(doc) as User) : null;
    },
    async getUserByEmail(email) {
      const doc = await db
        .query("users")
        .withIndex("by_email", (q) => q.eq("email", email))
        .unique();
      return doc ? (strip(doc) as User) : null;
    },
    async getUserByKindeId(kindeUserId) {
      const doc = await db
        .query("users")
        .withIndex("by_kinde_user_id", (q) => q.eq("kindeUserId", kindeUserId))
        .unique();
      return doc ? (strip(doc) as User) : null;
    },
    async listUsersByRole(role, limit) {
      return takeRows<User>(db
        .query("users")
        .withIndex("by_role", (q) => q.eq("role", role))
        , limit, 200);
    },
    async listUsersByAccount(accountId, limit) {
      return takeRows<User>(db
        .query("users")
        .withIndex("by_account", (q) => q.eq("accountId", accountId))
        , limit, 200);
    },
    async patchUser(id, patch) {
      const doc = await userDoc(id);
      if (!doc) throw new Error(`Invariant broken: patch of missing user ${id}`);
      await db.patch(doc._id, defined(patch));
    },
    async insertSession(session) {
      await db.insert("sessions", session);
    },
    async getSessionByTokenHash(tokenHash) {
      const doc = await db
        .query("sessions")
        .withIndex("by_token_hash", (q) => q.eq("tokenHash", tokenHash))
        .unique();
      return doc ? (strip(doc) as Session) : null;
    },
    async endSession(id, endedAtMs) {
      const doc = await sessionDoc(id);
      if (!doc) throw new Error(`Invariant broken: end of missing session ${id}`);
      await db.patch(doc._id, { endedAtMs });
    },
    async insertInvite(invite) {
      await db.insert("invites", invite);
    },
    async getInvite(id) {
      const doc = await inviteDoc(id);
      return doc ? (strip(doc) as Invite) : null;
    },
    async getInviteByTokenHash(tokenHash) {
      const doc = await db
        .query("invites")
        .withIndex("by_token_hash", (q) => q.eq("tokenHash", tokenHash))
        .unique();
      return doc ? (strip(doc) as Invite) : null;
    },
    async listInvitesByAccount(accountId, limit) {
      return takeRows<Invite>(db
        .query("invites")
        .withIndex("by_account", (q) => q.eq("accountId", accountId))
        .order("desc")
        , limit, 100);
    },
    async patchInvite(id, patch) {
      const doc = await inviteDoc(id);
      if (!doc) throw new Error(`Invariant broken: patch of missing invite ${id}`);
      await db.patch(doc._id, defined(patch));
    },
    async getSetup() {
      const doc = await db
        .query("setup")
        .withIndex("by_key", (q) => q.eq("key", "first_operator"))
        .unique();
      return doc ? (strip(doc) as SetupRecord) : null;
    },
    async insertSetup(record) {
      await db.insert("setup", record);
    },
  };
}
