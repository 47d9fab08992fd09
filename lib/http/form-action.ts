/**
 * Server actions behind dashboard forms: read the form into an object
 * (Next's own `$ACTION…` fields left out), parse it with zod, run, and turn an
 * AppError into a message on the form. Anything else is a bug and throws.
 * Next.js checks a server action's Origin against the Host itself, so a
 * cross-site form cannot call one.
 */
import { headers } from "next/headers";
import type { z } from "zod";
import { isAppError } from "../errors";
import { parseInput } from "../validation";

export interface ActionState {
  error: string | null;
  notice: string | null;
  /** Shown once: a new API key, an invite link. */
  secret: string | null;
}

export const FORM_FIELD_MAX_CHARS = 4096;

export function formObject(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$ACTION")) continue;
    if (typeof value !== "string") continue;
    out[name] = value.length > FORM_FIELD_MAX_CHARS ? value.slice(0, FORM_FIELD_MAX_CHARS + 1) : value;
  }
  return out;
}

export function parseForm<S extends z.ZodType>(schema: S, form: FormData): z.output<S> {
  return parseInput(schema, formObject(form), "form");
}

/** Runs `work`; an AppError becomes the form's error message. */
export async function formAction(work: () => Promise<Omit<Partial<ActionState>, "error">>): Promise<ActionState> {
  try {
    const done = await work();
    return { error: null, notice: done.notice ?? null, secret: done.secret ?? null };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, notice: null, secret: null };
    throw error;
  }
}

/** The site's own origin, for links an operator passes on (invite links). */
export async function siteOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") ?? (/^(localhost|127\.)/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
