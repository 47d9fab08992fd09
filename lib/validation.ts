import { z } from "zod";
import { AppError } from "./errors";

/**
 * Parses a value at a boundary. A failure becomes one `invalid_input` error
 * whose message names each field that is wrong and what it expects.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = "input"): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap(closestBranch);
  const problems = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : what;
    return `${path}: ${issue.message}`;
  });
  throw new AppError("invalid_input", problems.join("; "), {
    details: { fields: issues.slice(0, 20).map((i) => i.path.map(String).join(".") || what) },
  });
}

type Issue = z.core.$ZodIssue;

/**
 * A value that matches none of a union's shapes gets zod's bare "Invalid
 * input". Say instead what is wrong with it as the shape it came closest to
 * (the one with the fewest problems), so the message names the field.
 */
function closestBranch(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || !("errors" in issue) || !Array.isArray(issue.errors) || issue.errors.length === 0) return [issue];
  const branches = (issue.errors as Issue[][]).filter((b) => b.length > 0);
  if (branches.length === 0) return [issue];
  const best = branches.reduce((a, b) => (b.length < a.length ? b : a));
  return best.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/** A typed id such as acct_… (lib/ids.ts): the prefix, "_", 20 base32 characters. */
export function idOf(prefix: string, what: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{20}$`), `${what} (${prefix}_ followed by 20 characters)`);
}

/** An email address, trimmed and lower-cased; at most 254 characters. */
export const emailSchema = z
  .string()
  .trim()
  .max(254, "an email address of at most 254 characters")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "an email address such as ana@example.com")
  .transform((email) => email.toLowerCase());

/**
 * A query-string number: only plain digits become a number; anything else
 * ("0x10", "1e3", " 5", "") stays a string so the schema refuses it by name.
 */
export function queryInt(value: string | null): number | string | undefined {
  if (value === null) return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : value;
}
