/**
 * The Convex engine's tables: the same tables and indexes as the SQLite
 * migrations (lib/engine/sqlite/migrations), field names in camelCase. Each
 * domain declares its tables in convex/tables/<domain>.ts; each index serves
 * one repository method in convex/engine/repos/<domain>.ts.
 */
import { defineSchema } from "convex/server";
import { accountsTables } from "./tables/accounts";
import { usageTables } from "./tables/usage";
import { apiKeysTables } from "./tables/apiKeys";
import { gateTables } from "./tables/gate";
import { linksTables } from "./tables/links";
import { meterTables } from "./tables/meter";
import { inboxTables } from "./tables/inbox";
import { standinTables } from "./tables/standin";
import { auditTables } from "./tables/audit";
import { peopleTables } from "./tables/people";

export default defineSchema({
  ...accountsTables,
  ...usageTables,
  ...apiKeysTables,
  ...gateTables,
  ...linksTables,
  ...meterTables,
  ...inboxTables,
  ...standinTables,
  ...peopleTables,
  ...auditTables,
});
