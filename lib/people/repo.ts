/**
 * People who sign in: operators (run the dashboard) and account members (see
 * one account). Their sessions, the invites that bring them in, and the
 * one-row record that the first-run setup was used.
 *
 * Written by people.* scripts (setup, invites, sign-in, sign-out); read on
 * every dashboard request (a session lookup by token hash) and by the people
 * pages. Passwords are hashed with scrypt outside the scripts (lib/auth/password.ts):
 * a script never sees a password, only its hash.
 */
export type Role = "operator" | "member";

export interface User {
  id: string; // usr_…
  /** Lower-cased; unique. */
  email: string;
  name: string;
  role: Role;
  /** The one account a member sees; null for operators. */
  accountId: string | null;
  /** `scrypt$N$r$p$salt$hash` (lib/auth/password.ts); null for people who sign in with Kinde. */
  passwordHash: string | null;
  /** Kinde's user id (kp_…) once linked; unique when set. */
  kindeUserId: string | null;
  createdAtMs: number;
  /** A disabled person cannot sign in and every session of theirs stops working. */
  disabledAtMs: number | null;
}

export interface Session {
  id: string; // ses_…
  /** hex SHA-256 of the random token in the cookie; the token itself is never stored. */
  tokenHash: string;
  userId: string;
  createdAtMs: number;
  expiresAtMs: number;
  /** Set by sign-out (or by disabling the person); an ended session is never accepted again. */
  endedAtMs: number | null;
}

export interface Invite {
  id: string; // inv_…
  /** hex SHA-256 of the one-time token in the invite link. */
  tokenHash: string;
  role: Role;
  /** The account a member invite is for; null for operator invites. */
  accountId: string | null;
  email: string;
  /** Who invited (an audit label such as "operator ana@example.com"). */
  invitedBy: string;
  createdAtMs: number;
  expiresAtMs: number;
  usedAtMs: number | null;
  usedByUserId: string | null;
}

/** The first-run setup: one row once used; its presence closes /setup for good. */
export interface SetupRecord {
  key: "first_operator";
  doneAtMs: number;
  userId: string;
}

export interface PeopleRepo {
  insertUser(user: User): Promise<void>;
  getUser(id: string): Promise<User | null>;
  getUserByEmail(email: string): Promise<User | null>;
  getUserByKindeId(kindeUserId: string): Promise<User | null>;
  /** Oldest first, at most `limit` (≤ 200). */
  listUsersByRole(role: Role, limit: number): Promise<User[]>;
  /** Members of one account, oldest first, at most `limit` (≤ 200). */
  listUsersByAccount(accountId: string, limit: number): Promise<User[]>;
  patchUser(id: string, patch: Partial<Pick<User, "name" | "passwordHash" | "kindeUserId" | "disabledAtMs">>): Promise<void>;

  insertSession(session: Session): Promise<void>;
  getSessionByTokenHash(tokenHash: string): Promise<Session | null>;
  endSession(id: string, endedAtMs: number): Promise<void>;

  insertInvite(invite: Invite): Promise<void>;
  getInvite(id: string): Promise<Invite | null>;
  getInviteByTokenHash(tokenHash: string): Promise<Invite | null>;
  /** Newest first, at most `limit` (≤ 100). accountId null lists operator invites. */
  listInvitesByAccount(accountId: string | null, limit: number): Promise<Invite[]>;
  patchInvite(id: string, patch: Partial<Pick<Invite, "usedAtMs" | "usedByUserId" | "expiresAtMs">>): Promise<void>;

  getSetup(): Promise<SetupRecord | null>;
  insertSetup(record: SetupRecord): Promise<void>;
}
