import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { KyselyStore } from '../kysely-store.js';

/**
 * The shared store for several API and worker processes. What differs from SQLite is confined to
 * here: claims of one task type are serialised by a transaction-scoped advisory lock (so the
 * per-engine concurrency count cannot be raced by two processes), and candidate rows are locked
 * with FOR UPDATE SKIP LOCKED so concurrent claimers never wait on each other's rows.
 */
export function openPostgresStore(connectionString: string, agingMs: number, poolMax: number): KyselyStore {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStore(
    db,
    {
      kind: 'postgres',
      lockCandidates: true,
      claimTransaction: (kdb, taskType, fn) =>
        kdb.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtext(${`aeq:claim:${taskType}`}))`.execute(trx);
          return fn(trx);
        }),
      destroy: () => db.destroy(),
    },
    agingMs,
  );
}
