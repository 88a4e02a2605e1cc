import { sql, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.js';
import * as sqlite005 from './sqlite/migrations/005-status-counts.js';
import * as sqlite012 from './sqlite/migrations/012-account-counts.js';
import * as postgres005 from './postgres/migrations/005-pool-lease-function.js';
import * as postgres007 from './postgres/migrations/007-pool-slots.js';
import * as postgres014 from './postgres/migrations/014-c-collation-ids.js';
import * as postgres018 from './postgres/migrations/018-worker-lock-keys.js';
import * as postgres019 from './postgres/migrations/019-claim-function.js';
import * as postgres020 from './postgres/migrations/020-pool-slots-batch.js';

/**
 * What the shared Kysely operations need to know about the database under them, declared once per
 * dialect (as Kysely's adapters declare theirs). Operations read these flags; none asks which
 * database it is on. Where a dialect has a form of its own for a whole operation (the embedded
 * store's prepared statements, PostgreSQL's batched finish), that form lives beside the shared one
 * in the operation's file, and the store class wires it.
 */
export interface StoreDialect {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Candidate rows of a claim (of webhook deliveries, in the shared form) can be locked with FOR UPDATE SKIP LOCKED,
   * so concurrent claimers pass each other's rows by. SQLite has one writer at a time: there is nothing to skip.
   */
  readonly supportsSkipLocked: boolean;
  /**
   * Transaction-scoped advisory locks serialise a pool lease of one resource across processes (the shared form;
   * PostgreSQL's task claim takes the same kind of lock inside its stored function). Without them the transaction
   * itself must be exclusive, as a SQLite write transaction is.
   */
  readonly supportsAdvisoryLocks: boolean;
  /**
   * Tables live in named schemas. Kysely looks for its migration tables across every schema; the
   * migrator must be told ours, or a table of another schema in the same database (another
   * deployment, a test) would be taken for it.
   */
  readonly supportsSchemas: boolean;
  /** Migrations only this dialect runs, merged with the shared ones by name (src/store/migrate.ts). */
  readonly migrations: Readonly<Record<string, Migration>>;
}

export const SQLITE_DIALECT: StoreDialect = Object.freeze({
  kind: 'sqlite',
  supportsSkipLocked: false,
  supportsAdvisoryLocks: false,
  supportsSchemas: false,
  migrations: { '005-status-counts': sqlite005, '012-account-counts': sqlite012 },
});

export const POSTGRES_DIALECT: StoreDialect = Object.freeze({
  kind: 'postgres',
  supportsSkipLocked: true,
  supportsAdvisoryLocks: true,
  supportsSchemas: true,
  migrations: {
    '005-pool-lease-function': postgres005,
    '007-pool-slots': postgres007,
    '014-c-collation-ids': postgres014,
    '018-worker-lock-keys': postgres018,
    '019-claim-function': postgres019,
    '020-pool-slots-batch': postgres020,
  },
});

/**
 * Runs `fn` in a transaction that no other caller with the same key runs alongside, in any
 * process: under an advisory lock where the dialect has them, else in a transaction that is
 * exclusive by itself. The lock's name is also taken by the stored pool-lease function
 * (postgres/migrations/005-pool-lease-function.ts), hence its `aeq:claim:` prefix for every key.
 */
export function serialised<T>(
  db: Kysely<Database>,
  dialect: StoreDialect,
  key: string,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (!dialect.supportsAdvisoryLocks) return db.transaction().execute(fn);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`aeq:claim:${key}`}))`.execute(trx);
    return fn(trx);
  });
}
