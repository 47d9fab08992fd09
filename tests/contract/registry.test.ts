/**
 * Every transaction script has its Convex function, of the same kind, at the
 * name the ConvexEngine calls. A script added without a wrapper fails here.
 */
import { describe, expect, test } from "vitest";
import { convexFunctionName } from "../../lib/engine/convex/engine";
import { scripts } from "../../lib/scripts/registry";

const modules = import.meta.glob("../../convex/*.ts");

describe("script registry", () => {
  test("has scripts", () => {
    expect(Object.keys(scripts).length).toBeGreaterThan(0);
  });

  test.each(Object.values(scripts).map((s) => [s.name, s] as const))("%s has a Convex function of the same kind", async (_name, script) => {
    const [module, fn] = convexFunctionName(script.name).split(":");
    const loader = modules[`../../convex/${module}.ts`];
    expect(loader, `convex/${module}.ts is missing`).toBeDefined();
    const exported = ((await loader!()) as Record<string, { isMutation?: boolean; isQuery?: boolean; isPublic?: boolean }>)[fn!];
    expect(exported, `convex/${module}.ts does not export ${fn}`).toBeDefined();
    expect(script.kind === "mutation" ? exported!.isMutation : exported!.isQuery).toBe(true);
  });
});
