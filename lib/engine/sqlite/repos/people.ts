/** Users, sessions, invites and the first-run record over SQLite (migration 0008). */
import type Database from "better-sqlite3";
import type { Invite, PeopleRepo, Role, Session, SetupRecord, User } from "../../../people/repo";
import { lazyStatement } from "./lazy";

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  account_id: string | null;
  password_hash: string | null;
  kinde_user_id: string | null;
  created_at_ms: number;
  disabled_at_ms: number | null;
}
interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  created_at_ms: number;
  expires_at_ms: number;
  ended_at_ms: number | null;
}
interface InviteRow {
  id: string;
  token_hash: string;
  role: Role;
  account_id: string | null;
  email: string;
  invited_by: string;
  created_at_ms: number;
  expires_at_ms: number;
  used_at_ms: number | null;
  used_by_user_id: string | null;
}

const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  accountId: r.account_id,
  passwordHash: r.password_hash,
  kindeUserId: r.kinde_user_id,
  createdAtMs: r.created_at_ms,
  disabledAtMs: r.disabled_at_ms,
});
const toSession = (r: SessionRow): Session => ({
  id: r.id,
  tokenHash: r.token_hash,
  userId: r.user_id,
  createdAtMs: r.created_at_ms,
  expiresAtMs: r.expires_at_ms,
  endedAtMs: r.ended_at_ms,
});
const toInvite = (r: InviteRow): Invite => ({
  id: r.id,
  tokenHash: r.token_hash,
  role: r.role,
  accountId: r.account_id,
  email: r.email,
  invitedBy: r.invited_by,
  createdAtMs: r.created_at_ms,
  expiresAtMs: r.expires_at_ms,
  usedAtMs: r.used_at_ms,
  usedByUserId: r.used_by_user_id,
});

const userColumns = { name: "name", passwordHash: "password_hash", kindeUserId: "kinde_user_id", disabledAtMs: "disabled_at_ms" } as const;
const inviteColumns = { usedAtMs: "used_at_ms", usedByUserId: "used_by_user_id", expiresAtMs: "expires_at_ms" } as const;

/** One UPDATE per set of patched fields, prepared once. Column names come from a fixed table, never from input. */
function patcher<K extends string>(db: Database.Database, table: string, columns: Record<K, string>) {
  const cache = new Map<string, Database.Statement>();
  return (id: string, patch: Partial<Record<K, unknown>>) => {
    const keys = (Object.keys(patch) as K[]).filter((k) => patch[k] !== undefined && k in columns).sort();
    if (keys.length === 0) return;
    const cacheKey = keys.join(",");
    let statement = cache.get(cacheKey);
    if (!statement) {
      statement = db.prepare(`UPDATE ${table} SET ${keys.map((k) => `${columns[k]} = @${k}`).join(", ")} WHERE id = @id`);
      cache.set(cacheKey, statement);
    }
    statement.run({ ...Object.fromEntries(keys.map((k) => [k, patch[k]])), id });
  };
}

export function peopleRepo(db: Database.Database): PeopleRepo {
  const insertUser = lazyStatement(() =>
    db.prepare(
      `INSERT INTO users (id, email, name, role, account_id, password_hash, kinde_user_id, created_at_ms, disabled_at_ms)
       VALUES (@id, @email, @name, @role, @accountId, @passwordHash, @kindeUserId, @createdAtMs, @disabledAtMs)`,
    ),
  );
  const userById = lazyStatement(() => db.prepare("SELECT * FROM users WHERE id = ?"));
  const userByEmail = lazyStatement(() => db.prepare("SELECT * FROM users WHERE email = ?"));
  const userByKinde = lazyStatement(() => db.prepare("SELECT * FROM users WHERE kinde_user_id = ?"));
  const usersByRole = lazyStatement(() => db.prepare("SELECT * FROM users WHERE role = ? ORDER BY created_at_ms, id LIMIT ?"));
  const usersByAccount = lazyStatement(() => db.prepare("SELECT * FROM users WHERE account_id = ? ORDER BY created_at_ms, id LIMIT ?"));
  const insertSession = lazyStatement(() =>
    db.prepare(
      `INSERT INTO sessions (id, token_hash, user_id, created_at_ms, expires_at_ms, ended_at_ms)
       VALUES (@id, @tokenHash, @userId, @createdAtMs, @expiresAtMs, @endedAtMs)`,
    ),
  );
  const sessionByHash = lazyStatement(() => db.prepare("SELECT * FROM sessions WHERE token_hash = ?"));
  const endSession = lazyStatement(() => db.prepare("UPDATE sessions SET ended_at_ms = ? WHERE id = ?"));
  const insertInvite = lazyStatement(() =>
    db.prepare(
      `INSERT INTO invites (id, token_hash, role, account_id, email, invited_by, created_at_ms, expires_at_ms, used_at_ms, used_by_user_id)
       VALUES (@id, @tokenHash, @role, @accountId, @email, @invitedBy, @createdAtMs, @expiresAtMs, @usedAtMs, @usedByUserId)`,
    ),
  );
  const inviteById = lazyStatement(() => db.prepare("SELECT * FROM invites WHERE id = ?"));
  const inviteByHash = lazyStatement(() => db.prepare("SELECT * FROM invites WHERE token_hash = ?"));
  const invitesByAccount = lazyStatement(() => db.prepare("SELECT * FROM invites WHERE account_id = ? ORDER BY created_at_ms DESC, id DESC LIMIT ?"));
  const operatorInvites = lazyStatement(() => db.prepare("SELECT * FROM invites WHERE account_id IS NULL ORDER BY created_at_ms DESC, id DESC LIMIT ?"));
  const getSetup = lazyStatement(() => db.prepare("SELECT * FROM setup WHERE key = 'first_operator'"));
  const insertSetup = lazyStatement(() => db.prepare("INSERT INTO setup (key, done_at_ms, user_id) VALUES (@key, @doneAtMs, @userId)"));
  const patchUser = patcher(db, "users", userColumns);
  const patchInvite = patcher(db, "invites", inviteColumns);

  return {
    async insertUser(user) {
      insertUser().run(user);
    },
    async getUser(id) {
      const row = userById().get(id) as UserRow | undefined;
      return row ? toUser(row) : null;
    },
    async getUserByEmail(email) {
      const row = userByEmail().get(email) as UserRow | undefined;
      return row ? toUser(row) : null;
    },
    async getUserByKindeId(kindeUserId) {
      const row = userByKinde().get(kindeUserId) as UserRow | undefined;
      return row ? toUser(row) : null;
    },
    async listUsersByRole(role, limit) {
      return (usersByRole().all(role, Math.min(limit, 200)) as UserRow[]).map(toUser);
    },
    async listUsersByAccount(accountId, limit) {
      return (usersByAccount().all(accountId, Math.min(limit, 200)) as UserRow[]).map(toUser);
    },
    async patchUser(id, patch) {
      patchUser(id, patch);
    },
    async insertSession(session) {
      insertSession().run(session);
    },
    async getSessionByTokenHash(tokenHash) {
      const row = sessionByHash().get(tokenHash) as SessionRow | undefined;
      return row ? toSession(row) : null;
    },
    async endSession(id, endedAtMs) {
      endSession().run(endedAtMs, id);
    },
    async insertInvite(invite) {
      insertInvite().run(invite);
    },
    async getInvite(id) {
      const row = inviteById().get(id) as InviteRow | undefined;
      return row ? toInvite(row) : null;
    },
    async getInviteByTokenHash(tokenHash) {
      const row = inviteByHash().get(tokenHash) as InviteRow | undefined;
      return row ? toInvite(row) : null;
    },
    async listInvitesByAccount(accountId, limit) {
      const capped = Math.min(limit, 100);
      return ((accountId === null ? operatorInvites().all(capped) : invitesByAccount().all(accountId, capped)) as InviteRow[]).map(toInvite);
    },
    async patchInvite(id, patch) {
      patchInvite(id, patch);
    },
    async getSetup() {
      const row = getSetup().get() as { key: "first_operator"; done_at_ms: number; user_id: string } | undefined;
      return row ? ({ key: row.key, doneAtMs: row.done_at_ms, userId: row.user_id } satisfies SetupRecord) : null;
    },
    async insertSetup(record) {
      insertSetup().run(record);
    },
  };
}
