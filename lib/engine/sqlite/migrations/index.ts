/**
 * Numbered migrations, applied in order at start, each in its own transaction.
 * They live in TypeScript modules (not .sql files) so that the production
 * build carries them without reading the file system at run time.
 * Never edit a migration that has shipped: add the next number instead (the
 * runner stores a checksum of each and refuses to start when one changed).
 */
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_usage";
import * as m0003 from "./0003_api_keys";
import * as m0004 from "./0004_provider";
import * as m0005 from "./0005_gate";
import * as m0006 from "./0006_meter";
import * as m0007 from "./0007_inbox";
import * as m0008 from "./0008_auth";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  { version: 1, name: "foundation", sql: m0001.sql },
  { version: 2, name: "usage", sql: m0002.sql },
  { version: 3, name: "api_keys", sql: m0003.sql },
  { version: 4, name: "provider", sql: m0004.sql },
  { version: 5, name: "gate", sql: m0005.sql },
  { version: 6, name: "meter", sql: m0006.sql },
  { version: 7, name: "inbox", sql: m0007.sql },
  { version: 8, name: "auth", sql: m0008.sql },
];
