"use server";

import { gateContext } from "@/lib/api/gate";
import { audit } from "@/lib/audit/audit";
import { isAppError } from "@/lib/errors";
import { labInput, runLab, type LabResult } from "@/lib/gate/lab";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export type LabState = { result: LabResult | null; error: string | null };

/** Runs the Lab on two fresh accounts through the real gate; audited. Operator only (server actions check Origin themselves). */
export async function runLabAction(_previous: LabState, form: FormData): Promise<LabState> {
  const { principal } = await requireOperatorSession();
  try {
    const input = parseInput(labInput, { jobs: form.get("jobs"), estimate: form.get("estimate"), limit: form.get("limit") }, "lab");
    const runtime = getRuntime();
    if (runtime.config.provider !== "standin") {
      return { result: null, error: "The Lab sets each fresh account's limit on the built-in stand-in; with TOLLBOOTH_PROVIDER=kinde it cannot run." };
    }
    const result = await runLab(gateContext(), runtime.engine, input);
    await audit(principal, "lab.run", "concurrency lab", {
      ...input,
      checkAccountId: result.check.accountId,
      holdAccountId: result.hold.accountId,
      spent: { check: result.check.spentUnits, hold: result.hold.spentUnits },
    });
    return { result, error: null };
  } catch (error) {
    if (isAppError(error)) return { result: null, error: error.message };
    throw error;
  }
}
