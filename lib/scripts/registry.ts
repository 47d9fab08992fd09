/**
 * Every transaction script by name. Each domain exports its scripts from
 * lib/<domain>/scripts.ts and is listed here once; convex/<module>.ts wraps the
 * same objects (tests/contract/registry.test.ts checks that none is missing).
 */
import * as accounts from "../accounts/scripts";
import * as gate from "../gate/scripts";
import * as inbox from "../inbox/scripts";
import * as inboxNaive from "../inbox/naive-scripts";
import * as standin from "../standin/scripts";
import * as keys from "../keys/scripts";
import * as links from "../links/scripts";
import * as meter from "../meter/scripts";
import * as usage from "../usage/scripts";
import type { Script } from "./define";
import * as audit from "../audit/scripts";
import * as people from "../people/scripts";

const modules = { accounts, usage, keys, standin, gate, links, meter, inbox, inboxNaive, people, audit } as const;

function collect(): Record<string, Script> {
  const out: Record<string, Script> = {};
  for (const mod of Object.values(modules)) {
    for (const value of Object.values(mod)) {
      if (isScript(value)) {
        if (out[value.name]) throw new Error(`Two scripts are named ${value.name}`);
        out[value.name] = value as Script;
      }
    }
  }
  return out;
}

function isScript(value: unknown): value is Script {
  return typeof value === "object" && value !== null && "handler" in value && "kind" in value && "name" in value;
}

export const scripts: Readonly<Record<string, Script>> = collect();

export type ScriptModules = typeof modules;
