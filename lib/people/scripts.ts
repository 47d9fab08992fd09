/**
 * Operators and account members: the first-run setup, invites, sessions.
 * Scripts never see a password or a token, only their hashes (made in Node by
 * lib/auth/*), so nothing secret crosses into a transaction or onto Convex.
 */
import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { emailSchema, idOf } from "../validation";
import type { Invite, Session, User } from "./repo";

export const LIST_PEOPLE_MAX = 200;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "a hex SHA-256 hash");
const passwordHash = z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/, "a scrypt hash");
const kindeUserId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "a Kinde user id");
export const personName = z.string().trim().min(1, "a name of 1 to 100 characters").max(100, "a name of 1 to 100 characters");
const accountId = idOf("acct", "an account id");
const userId = idOf("usr", "a user id");
const newSession = z.strictObject({ tokenHash: sha256Hex, expiresAtMs: z.number().int().positive() });
/** What making a person takes besides who invited them: a name, a password hash or a Kinde user, and their first session. */
const newPerson = { name: personName, passwordHash: passwordHash.nullable(), kindeUserId: kindeUserId.nullable(), session: newSession };

/** What pages and routes see of a person: never the password hash. */
export const userSummary = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(["operator", "member"]),
  accountId: z.string().nullable(),
  kindeLinked: z.boolean(),
  createdAtMs: z.number(),
  disabledAtMs: z.number().nullable(),
});
export type UserSummary = z.output<typeof userSummary>;

export const inviteSummary = z.object({
  id: z.string(),
  role: z.enum(["operator", "member"]),
  accountId: z.string().nullable(),
  email: z.string(),
  invitedBy: z.string(),
  createdAtMs: z.number(),
  expiresAtMs: z.number(),
  usedAtMs: z.number().nullable(),
});

/** An invite as pages see it: never the token's hash. */
function inviteView({ tokenHash: _hash, usedByUserId: _used, ...summary }: Invite): z.output<typeof inviteSummary> {
  return summary;
}

export function summarize(user: User): UserSummary {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    accountId: user.accountId,
    kindeLinked: user.kindeUserId !== null,
    createdAtMs: user.createdAtMs,
    disabledAtMs: user.disabledAtMs,
  };
}

async function startSession(tx: Tx, user: User, session: z.output<typeof newSession>): Promise<Session> {
  if (session.expiresAtMs <= tx.nowMs) throw new AppError("invalid_input", "session.expiresAtMs: a time after now");
  const row: Session = { id: tx.newId("ses"), tokenHash: session.tokenHash, userId: user.id, createdAtMs: tx.nowMs, expiresAtMs: session.expiresAtMs, endedAtMs: null };
  await tx.store.people.insertSession(row);
  return row;
}

async function insertPerson(
  tx: Tx,
  person: { email: string; name: string; role: User["role"]; accountId: string | null; passwordHash: string | null; kindeUserId: string | null },
): Promise<User> {
  if (await tx.store.people.getUserByEmail(person.email)) throw new AppError("conflict", `email: ${person.email} already signs in here`);
  if (person.kindeUserId !== null && (await tx.store.people.getUserByKindeId(person.kindeUserId))) {
    throw new AppError("conflict", "This Kinde user is already linked to someone here.");
  }
  if (person.passwordHash === null && person.kindeUserId === null) throw new AppError("invalid_input", "password: a password (or a Kinde sign-in) is needed");
  const user: User = { id: tx.newId("usr"), ...person, createdAtMs: tx.nowMs, disabledAtMs: null };
  await tx.store.people.insertUser(user);
  return user;
}

const sessionStarted = z.object({ user: userSummary, sessionId: z.string() });

export const setupStatus = query("people.setupStatus", z.strictObject({}), z.object({ done: z.boolean() }), async (tx) => ({
  done: (await tx.store.people.getSetup()) !== null,
}));

/**
 * The first operator, made once. The caller has checked the setup token; this
 * script makes sure it works only once, even when two setups race (the setup
 * row is written in the same transaction as the operator).
 */
export const setupFirstOperator = mutation(
  "people.setupFirstOperator",
  z.strictObject({ email: emailSchema, ...newPerson }),
  sessionStarted,
  async (tx, args) => {
    if (await tx.store.people.getSetup()) throw new AppError("conflict", "The first-run setup was already used; sign in instead.");
    const user = await insertPerson(tx, { email: args.email, name: args.name, role: "operator", accountId: null, passwordHash: args.passwordHash, kindeUserId: args.kindeUserId });
    await tx.store.people.insertSetup({ key: "first_operator", doneAtMs: tx.nowMs, userId: user.id });
    const session = await startSession(tx, user, args.session);
    await recordAudit(tx, { kind: "operator", id: user.id, label: user.email }, "people.setup", user.id, null, { email: user.email });
    return { user: summarize(user), sessionId: session.id };
  },
);

/**
 * What sign-in needs to check a password: the person and their hash. null when
 * no one signs in with this email, so the caller can spend the same time on a
 * dummy check and say the same thing either way.
 */
export const credentialsFor = query(
  "people.credentialsFor",
  z.strictObject({ email: emailSchema }),
  z.object({ user: userSummary, passwordHash: z.string().nullable() }).nullable(),
  async (tx, args) => {
    const user = await tx.store.people.getUserByEmail(args.email);
    return user ? { user: summarize(user), passwordHash: user.passwordHash } : null;
  },
);

export const byKindeUserId = query("people.byKindeUserId", z.strictObject({ kindeUserId }), userSummary.nullable(), async (tx, args) => {
  const user = await tx.store.people.getUserByKindeId(args.kindeUserId);
  return user ? summarize(user) : null;
});

/** Starts a session for someone whose password (or Kinde sign-in) the caller has checked. */
export const signIn = mutation(
  "people.signIn",
  z.strictObject({ userId, session: newSession, newPasswordHash: passwordHash.optional() }),
  sessionStarted,
  async (tx, args) => {
    const user = await tx.store.people.getUser(args.userId);
    if (!user || user.disabledAtMs !== null) throw new AppError("unauthorized", "That email and password do not match anyone who may sign in here.");
    // A hash made with weaker parameters than today's is replaced at sign-in.
    if (args.newPasswordHash !== undefined) await tx.store.people.patchUser(user.id, { passwordHash: args.newPasswordHash });
    const session = await startSession(tx, user, args.session);
    return { user: summarize(user), sessionId: session.id };
  },
);

/** The person behind a session token, or null when the session is unknown, ended, expired, or its person disabled. */
export const sessionByToken = query(
  "people.sessionByToken",
  z.strictObject({ tokenHash: sha256Hex }),
  z.object({ sessionId: z.string(), expiresAtMs: z.number(), user: userSummary }).nullable(),
  async (tx, args) => {
    const session = await tx.store.people.getSessionByTokenHash(args.tokenHash);
    if (!session || session.endedAtMs !== null || session.expiresAtMs <= tx.nowMs) return null;
    const user = await tx.store.people.getUser(session.userId);
    if (!user || user.disabledAtMs !== null) return null;
    return { sessionId: session.id, expiresAtMs: session.expiresAtMs, user: summarize(user) };
  },
);

/** Sign-out: the session stops working at once, on every server. Ending twice answers the same. */
export const endSession = mutation("people.endSession", z.strictObject({ tokenHash: sha256Hex }), z.object({ ended: z.boolean() }), async (tx, args) => {
  const session = await tx.store.people.getSessionByTokenHash(args.tokenHash);
  if (!session) return { ended: false };
  if (session.endedAtMs === null) await tx.store.people.endSession(session.id, tx.nowMs);
  return { ended: true };
});

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An operator invites an operator, or a member of one account. The link carries a token whose hash is stored here. */
export const invite = mutation(
  "people.invite",
  z.strictObject({
    role: z.enum(["operator", "member"]),
    accountId: accountId.nullable(),
    email: emailSchema,
    tokenHash: sha256Hex,
    actor: actorSchema,
  }),
  inviteSummary,
  async (tx, args) => {
    if ((args.role === "member") !== (args.accountId !== null)) {
      throw new AppError("invalid_input", "accountId: a member invite names one account; an operator invite names none");
    }
    if (args.accountId !== null && !(await tx.store.accounts.get(args.accountId))) throw new AppError("not_found", `No account ${args.accountId}.`);
    if (await tx.store.people.getUserByEmail(args.email)) throw new AppError("conflict", `email: ${args.email} already signs in here`);
    const row: Invite = {
      id: tx.newId("inv"),
      tokenHash: args.tokenHash,
      role: args.role,
      accountId: args.accountId,
      email: args.email,
      invitedBy: args.actor.label,
      createdAtMs: tx.nowMs,
      expiresAtMs: tx.nowMs + INVITE_TTL_MS,
      usedAtMs: null,
      usedByUserId: null,
    };
    await tx.store.people.insertInvite(row);
    await recordAudit(tx, args.actor, "people.invite", row.id, args.accountId, { role: args.role, email: args.email });
    return inviteView(row);
  },
);

/** An invite that can still be accepted, or null (unknown, used or expired: the same answer for each). */
export const inviteByToken = query("people.inviteByToken", z.strictObject({ tokenHash: sha256Hex }), inviteSummary.nullable(), async (tx, args) => {
  const row = await tx.store.people.getInviteByTokenHash(args.tokenHash);
  if (!row || row.usedAtMs !== null || row.expiresAtMs <= tx.nowMs) return null;
  return inviteView(row);
});

/** Accepting an invite makes the person and signs them in, once: a second use of the link is refused. */
export const acceptInvite = mutation(
  "people.acceptInvite",
  z.strictObject({ tokenHash: sha256Hex, ...newPerson }),
  sessionStarted,
  async (tx, args) => {
    const row = await tx.store.people.getInviteByTokenHash(args.tokenHash);
    if (!row || row.usedAtMs !== null || row.expiresAtMs <= tx.nowMs) throw new AppError("not_found", "This invite link was already used or has expired; ask for a new one.");
    if (row.accountId !== null && !(await tx.store.accounts.get(row.accountId))) throw new AppError("not_found", "This invite's account no longer exists.");
    const user = await insertPerson(tx, { email: row.email, name: args.name, role: row.role, accountId: row.accountId, passwordHash: args.passwordHash, kindeUserId: args.kindeUserId });
    await tx.store.people.patchInvite(row.id, { usedAtMs: tx.nowMs, usedByUserId: user.id });
    const session = await startSession(tx, user, args.session);
    await recordAudit(tx, { kind: user.role, id: user.id, label: user.email }, "people.accept_invite", row.id, row.accountId, { role: row.role });
    return { user: summarize(user), sessionId: session.id };
  },
);

export const listOperators = query("people.listOperators", z.strictObject({}), z.array(userSummary), async (tx) =>
  (await tx.store.people.listUsersByRole("operator", LIST_PEOPLE_MAX)).map(summarize),
);

export const listMembers = query("people.listMembers", z.strictObject({ accountId }), z.array(userSummary), async (tx, args) =>
  (await tx.store.people.listUsersByAccount(args.accountId, LIST_PEOPLE_MAX)).map(summarize),
);

/** Invites that can still be accepted (unused, unexpired), newest first. */
export const listOpenInvites = query("people.listOpenInvites", z.strictObject({ accountId: accountId.nullable() }), z.array(inviteSummary), async (tx, args) =>
  (await tx.store.people.listInvitesByAccount(args.accountId, 100))
    .filter((i) => i.usedAtMs === null && i.expiresAtMs > tx.nowMs)
    .map(inviteView),
);

/** Disabling someone ends every session of theirs at once (sessionByToken checks the person). Re-enabling is the same call with enabled: true. */
export const setDisabled = mutation(
  "people.setDisabled",
  z.strictObject({ userId, disabled: z.boolean(), actor: actorSchema }),
  userSummary,
  async (tx, args) => {
    const user = await tx.store.people.getUser(args.userId);
    if (!user) throw new AppError("not_found", `No person ${args.userId}.`);
    if (args.actor.id === user.id && args.disabled) throw new AppError("conflict", "You cannot disable yourself.");
    const disabledAtMs = args.disabled ? (user.disabledAtMs ?? tx.nowMs) : null;
    await tx.store.people.patchUser(user.id, { disabledAtMs });
    await recordAudit(tx, args.actor, args.disabled ? "people.disable" : "people.enable", user.id, user.accountId, { email: user.email });
    return summarize({ ...user, disabledAtMs });
  },
);
