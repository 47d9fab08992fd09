/**
 * The store port over Convex's ctx.db: one repository per table group, each
 * in repos/<domain>.ts. Every method is one indexed read or one write; system
 * fields (_id, _creationTime) never leave the repositories.
 */
import type { Store } from "../../lib/store/port";
import { accountsRepo } from "./repos/accounts";
import { usageRepo } from "./repos/usage";
import { apiKeysRepo } from "./repos/apiKeys";
import { auditRepo } from "./repos/audit";
import { peopleRepo } from "./repos/people";
import { gateRepo } from "./repos/gate";
import { standinRepo } from "./repos/standin";
import type { Db } from "./repos/db";

export function createConvexStore(db: Db): Store {
  return {
    accounts: accountsRepo(db),
    usage: usageRepo(db),
    apiKeys: apiKeysRepo(db),
    people: peopleRepo(db),
    audit: auditRepo(db),
    gate: gateRepo(db),
    standin: standinRepo(db),
  };
}
