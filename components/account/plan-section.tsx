/**
 * The account page's plan and limits on the stand-in (operator pages only):
 * the plan the stand-in bills the account on, and each feature's limit — the
 * plan's, or the operator's own. Saved together by updatePlanAndLimits.
 */
import { ActionForm } from "@/components/action-form";
import { getRuntime } from "@/lib/runtime";
import { STANDIN_PLANS } from "@/lib/standin/catalog";
import * as standin from "@/lib/standin/scripts";
import { updatePlanAndLimits } from "@/app/app/accounts/[id]/actions";

const input = "mt-1 rounded-md border border-stone-300 px-3 py-1.5";
const shown = (n: number | null | undefined) => (n === undefined ? "not granted" : n === null ? "unlimited" : n.toLocaleString("en"));

export async function PlanLimitsSection({ accountId }: { accountId: string }) {
  const { engine, config } = getRuntime();
  if (config.provider !== "standin") return null;
  const limits = await engine.run(standin.limits, { accountId });
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading" className="mb-2 text-lg font-semibold">
        Plan and limits (stand-in)
      </h2>
      <ActionForm action={updatePlanAndLimits} submit="Save plan and limits" className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <input type="hidden" name="accountId" value={accountId} />
        <label className="flex flex-col text-sm">
          Plan
          <select name="planCode" defaultValue={limits.planCode} className={input} data-testid="plan-code">
            {STANDIN_PLANS.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name} ({p.code})
              </option>
            ))}
          </select>
        </label>
        {limits.features.map((f) => (
          <label key={f.featureCode} className="flex flex-col text-sm">
            <span>
              <span className="font-mono">{f.featureCode}</span> limit (plan: {shown(f.planLimitMax)})
            </span>
            <input
              name={`limit.${f.featureCode}`}
              defaultValue={f.overrideLimitMax === undefined ? "" : f.overrideLimitMax === null ? "unlimited" : String(f.overrideLimitMax)}
              placeholder="the plan's"
              className={`${input} w-40 font-mono`}
            />
          </label>
        ))}
      </ActionForm>
      <p className="mt-1 text-xs text-stone-500">
        A limit is a whole number of units a cycle, &ldquo;unlimited&rdquo;, or blank for the plan&rsquo;s. In force now:{" "}
        {limits.features.map((f) => `${f.featureCode} ${shown(f.effectiveLimitMax)}`).join(", ")}. The account&rsquo;s own plan, which
        billing events set, follows when the provider sends its plan event (the Provider page can send one).
      </p>
    </section>
  );
}
