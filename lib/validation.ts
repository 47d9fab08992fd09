import type { z } from "zod";
import { AppError } from "./errors";

/**
 * Parses a value at a boundary. A failure becomes one `invalid_input` error
 * whose message names each field that is wrong and what it expects.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = "input"): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : what;
    return `${path}: ${issue.message}`;
  });
  throw new AppError("invalid_input", problems.join("; "), {
    details: { fields: result.error.issues.slice(0, 20).map((i) => i.path.map(String).join(".") || what) },
  });
}
