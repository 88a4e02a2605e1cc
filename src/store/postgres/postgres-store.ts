import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { KyselyStore } from '../kysely-store.js';
import * as m005 from './migrations/005-pool-lease-function.js';
import * as m007 from './migrations/007-pool-slots.js';

/**
 * The shared store for several API and worker processes. What differs from SQLite is confined to
 * here: claims of one task type are serialised by a transaction-scoped advisory lock (so the
 * per-engine concurrency count cannot be raced by two processes), candidate rows are locked
 * with FOR UPDATE SKIP LOCKED so concurrent claimers never wait on each other's rows, and a pool
 * lease is one call of a stored function that takes a free slot row the same way.
 */
export class PostgresStore extends KyselyStore {
  override async acquirePoolLease(resourceId: string, capacity: number, now: number, expiresAt: number): Promise<string | null> {
    const token = randomUUID();
    const r = await sql<{ ok: boolean }>`select aeq_acquire_pool_slot(${token}, ${resourceId}, ${capacity}, ${now}, ${expiresAt}) as ok`.execute(this.db);
    return r.rows[0]?.ok ? token : null;
  }

  override async releasePoolLease(token: string): Promise<void> {
    await sql`update pool_slots set token = null, expires_at = null where token = ${token}`.execute(this.db);
  }
}

export function openPostgresStore(connectionString: string, agingMs: number, poolMax: number): PostgresStore {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return new PostgresStore(
    db,
    {
      kind: 'postgres',
      lockCandidates: true,
      claimTransaction: (kdb, taskType, fn) =>
        kdb.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtext(${`aeq:claim:${taskType}`}))`.execute(trx);
          return fn(trx);
        }),
      migrations: { '005-pool-lease-function': m005, '007-pool-slots': m007 },
      destroy: () => db.destroy(),
    },
    agingMs,
  );
}
