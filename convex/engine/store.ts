/**
 * The store port over Convex's ctx.db: one repository per table group, each
 * in repos/<domain>.ts. Every method is one indexed read or one write; system
 * fields (_id, _creationTime) never leave the repositories.
 */
import type { Store } from "../../lib/store/port";
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
import type { Db } from "./repos/db";

export function createConvexStore(db: Db): Store {
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
