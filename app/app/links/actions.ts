"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { isAppError } from "@/lib/errors";
import { requireOperatorSession } from "@/lib/http/session";
import { hostOf, originOf, shortUrlOf } from "@/lib/links/http";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";

export interface LinkFormState {
  error: string | null;
  created: { code: string; shortUrl: string } | null;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** Server actions check Origin against Host themselves, so this form is safe from cross-site posts. */
export async function createLinkAction(_previous: LinkFormState, form: FormData): Promise<LinkFormState> {
  await requireOperatorSession();
  const h = await headers();
  const code = text(form, "code");
  try {
    const link = await getRuntime().engine.run(links.create, {
      accountId: text(form, "accountId"),
      destination: text(form, "destination"),
      ...(code ? { code } : {}),
      selfHosts: hostOf(h),
    });
    revalidatePath("/app/links");
    return { error: null, created: { code: link.code, shortUrl: shortUrlOf(originOf(h, "http://localhost"), link.code) } };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, created: null };
    throw error;
  }
}
