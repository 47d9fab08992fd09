/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as accounts from "../accounts.js";
import type * as audit from "../audit.js";
import type * as crons from "../crons.js";
import type * as engine_repos_accounts from "../engine/repos/accounts.js";
import type * as engine_repos_apiKeys from "../engine/repos/apiKeys.js";
import type * as engine_repos_audit from "../engine/repos/audit.js";
import type * as engine_repos_db from "../engine/repos/db.js";
import type * as engine_repos_gate from "../engine/repos/gate.js";
import type * as engine_repos_inbox from "../engine/repos/inbox.js";
import type * as engine_repos_links from "../engine/repos/links.js";
import type * as engine_repos_meter from "../engine/repos/meter.js";
import type * as engine_repos_people from "../engine/repos/people.js";
import type * as engine_repos_standin from "../engine/repos/standin.js";
import type * as engine_repos_usage from "../engine/repos/usage.js";
import type * as engine_store from "../engine/store.js";
import type * as engine_wrap from "../engine/wrap.js";
import type * as gate from "../gate.js";
import type * as inbox from "../inbox.js";
import type * as inboxNaive from "../inboxNaive.js";
import type * as keys from "../keys.js";
import type * as links from "../links.js";
import type * as meter from "../meter.js";
import type * as people from "../people.js";
import type * as scheduled from "../scheduled.js";
import type * as standin from "../standin.js";
import type * as tables_accounts from "../tables/accounts.js";
import type * as tables_apiKeys from "../tables/apiKeys.js";
import type * as tables_audit from "../tables/audit.js";
import type * as tables_gate from "../tables/gate.js";
import type * as tables_inbox from "../tables/inbox.js";
import type * as tables_links from "../tables/links.js";
import type * as tables_meter from "../tables/meter.js";
import type * as tables_people from "../tables/people.js";
import type * as tables_standin from "../tables/standin.js";
import type * as tables_usage from "../tables/usage.js";
import type * as usage from "../usage.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  accounts: typeof accounts;
  audit: typeof audit;
  crons: typeof crons;
  "engine/repos/accounts": typeof engine_repos_accounts;
  "engine/repos/apiKeys": typeof engine_repos_apiKeys;
  "engine/repos/audit": typeof engine_repos_audit;
  "engine/repos/db": typeof engine_repos_db;
  "engine/repos/gate": typeof engine_repos_gate;
  "engine/repos/inbox": typeof engine_repos_inbox;
  "engine/repos/links": typeof engine_repos_links;
  "engine/repos/meter": typeof engine_repos_meter;
  "engine/repos/people": typeof engine_repos_people;
  "engine/repos/standin": typeof engine_repos_standin;
  "engine/repos/usage": typeof engine_repos_usage;
  "engine/store": typeof engine_store;
  "engine/wrap": typeof engine_wrap;
  gate: typeof gate;
  inbox: typeof inbox;
  inboxNaive: typeof inboxNaive;
  keys: typeof keys;
  links: typeof links;
  meter: typeof meter;
  people: typeof people;
  scheduled: typeof scheduled;
  standin: typeof standin;
  "tables/accounts": typeof tables_accounts;
  "tables/apiKeys": typeof tables_apiKeys;
  "tables/audit": typeof tables_audit;
  "tables/gate": typeof tables_gate;
  "tables/inbox": typeof tables_inbox;
  "tables/links": typeof tables_links;
  "tables/meter": typeof tables_meter;
  "tables/people": typeof tables_people;
  "tables/standin": typeof tables_standin;
  "tables/usage": typeof tables_usage;
  usage: typeof usage;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
