/**
 * Transaction scripts: each is one transaction, written once, run by either
 * engine. A script declares zod schemas for its arguments and its result; the
 * SQLite engine parses with them and the Convex wrappers derive their
 * validators from them (convex/_wrap.ts), so both edges check the same shape.
 */
import type { z } from "zod";
import type { Tx } from "../store/port";

export type ScriptKind = "mutation" | "query";

export interface Script<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** `<module>.<function>`; on Convex it is the function `<module>:<function>` in convex/<module>.ts. */
  readonly name: string;
  readonly kind: ScriptKind;
  readonly args: A;
  readonly returns: R;
  readonly handler: (tx: Tx, args: z.output<A>) => Promise<z.output<R>>;
}

export function mutation<A extends z.ZodType, R extends z.ZodType>(
  name: string,
  args: A,
  returns: R,
  handler: (tx: Tx, args: z.output<A>) => Promise<z.output<R>>,
): Script<A, R> {
  return { name, kind: "mutation", args, returns, handler };
}

export function query<A extends z.ZodType, R extends z.ZodType>(
  name: string,
  args: A,
  returns: R,
  handler: (tx: Tx, args: z.output<A>) => Promise<z.output<R>>,
): Script<A, R> {
  return { name, kind: "query", args, returns, handler };
}

export type ArgsOf<S> = S extends Script<infer A, z.ZodType> ? z.input<A> : never;
export type ResultOf<S> = S extends Script<z.ZodType, infer R> ? z.output<R> : never;
