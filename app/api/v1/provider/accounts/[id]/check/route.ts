import * as accounts from "@/lib/accounts/scripts";
import { AppError } from "@/lib/errors";
import { json, requireOperator, route } from "@/lib/http/api";
import { checkProvider } from "@/lib/provider/check";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";
import { z } from "zod";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const featuresParam = z
  .string()
  .regex(/^[A-Za-z0-9_.\-]{1,100}(,[A-Za-z0-9_.\-]{1,100}){0,9}$/, "up to 10 feature codes, comma-separated")
  .default("tokens,clicks");

/** Reads the account's agreement, limits and current-cycle usage from the provider in use (reads only). ?features=tokens,clicks */
export const GET = route(async (request: Request, context: Context) => {
  await requireOperator(request);
  const { id } = await context.params;
  const features = parseInput(featuresParam, new URL(request.url).searchParams.get("features") ?? undefined, "features").split(",");
  const { engine, provider } = getRuntime();
  const account = await engine.run(accounts.get, { id });
  if (!account) throw new AppError("not_found", `No account ${id}.`);
  return json(await checkProvider(provider, account, features));
});
