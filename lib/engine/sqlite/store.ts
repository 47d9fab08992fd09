/**
 * The store port over SQLite: one repository per table group, each in
 * repos/<domain>.ts. Statements are prepared once per connection; each method
 * is one indexed statement. Column names are snake_case, fields camelCase; the
 * mapping lives in the repository and nowhere else.
 */
import type Database from "better-sqlite3";
import type { Store } from "../../store/port";
import { accountsRepo } from "./repos/accounts";
import { usageRepo } from "./repos/usage";
import { apiKeysRepo } from "./repos/apiKeys";
import { gateRepo } from "./repos/gate";
import { linksRepo } from "./repos/links";
import { meterRepo } from "./repos/meter";
import { allowanceRepo, inboxRepo } from "./repos/inbox";
import { standinRepo } from "./repos/standin";
import { auditRepo } from "./repos/audit";
import { peopleRepo } from "./repos/people";

export function createSqliteStore(db: Database.Database): Store {
  return {
    accounts: accountsRepo(db),
    usage: usageRepo(db),
    apiKeys: apiKeysRepo(db),
    gate: gateRepo(db),
    links: linksRepo(db),
    meter: meterRepo(db),
    inbox: inboxRepo(db),
    allowance: allowanceRepo(db),
    standin: standinRepo(db),
    people: peopleRepo(db),
    audit: auditRepo(db),
  };
}
