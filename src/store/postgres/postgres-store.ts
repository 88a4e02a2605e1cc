import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_DIALECT } from '../dialect.js';
import type { Database } from '../schema.js';
import type { TerminalWrite } from '../store.js';
import { KyselyStore } from '../kysely-store.js';
import { acquirePoolLeasePostgres, postgresReleaser } from '../pool-leases.js';
import { TurnBatch } from './turn-batch.js';

/**
 * The shared store for several API and worker processes. What differs from SQLite is confined to
 * here: claims of one task type are serialised by a transaction-scoped advisory lock (so the
 * per-engine concurrency count cannot be raced by two processes), candidate rows are locked
 * with FOR UPDATE SKIP LOCKED so concurrent claimers never wait on each other's rows, and a pool
 * lease is one call of a stored function that takes a free slot row the same way. The terminal
 * writes without a webhook and the lease releases asked for during one turn of the event loop go
 * to the server as one statement each (`turn-batch.ts`).
 */
export class PostgresStore extends KyselyStore {
  /** Terminal writes without a webhook, one statement per turn (the others keep their transaction). */
  private readonly finishes = new TurnBatch<Finish, boolean>(
    (fs) => this.finishAll(fs),
    (f) => this.finishOne(f),
  );

  override finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean> {
    if (write.webhook) return super.finishTask(id, leaseToken, write, now);
    return this.finishes.add({ id, leaseToken, write, now });
  }

  private finishOne(f: Finish): Promise<boolean> {
    return super.finishTask(f.id, f.leaseToken, f.write, f.now);
  }

  /** The same write as the shared store's, for many tasks: each is fenced by its own lease token. */
  private async finishAll(fs: Finish[]): Promise<boolean[]> {
    // One row per task in VALUES; a task twice in one turn is left to the one-by-one path.
    if (new Set(fs.map((f) => f.id)).size !== fs.length) throw new Error('a task finished twice in one turn');
    const rows = fs.map(
      ({ id, leaseToken, write: w, now }) =>
        sql`(${id}::text, ${leaseToken}::text, ${w.status}::text, ${w.result === undefined ? null : JSON.stringify(w.result)}::text, ${w.error}::text, ${w.creditsToCharge}::integer, ${w.creditsCharged}::integer, ${now}::bigint)`,
    );
    const r = await sql<{ id: string }>`
      update tasks as t set status = v.status, result = v.result, error = v.error, credits_to_charge = v.to_charge,
        credits_charged = v.charged, lease_token = null, lease_expires_at = null, finished_at = v.now, updated_at = v.now
      from (values ${sql.join(rows)}) as v (id, token, status, result, error, to_charge, charged, now)
      where t.id = v.id and t.status = 'PROCESSING' and t.lease_token = v.token
      returning t.id`.execute(this.db);
    const done = new Set(r.rows.map((x) => x.id));
    return fs.map((f) => done.has(f.id));
  }

  private readonly release = postgresReleaser(this.db);

  override acquirePoolLease(resourceId: string, capacity: number, now: number, expiresAt: number): Promise<string | null> {
    return acquirePoolLeasePostgres(this.db, resourceId, capacity, now, expiresAt);
  }
  override releasePoolLease(token: string): Promise<void> {
    return this.release(token);
  }
}

interface Finish {
  id: string;
  leaseToken: string;
  write: TerminalWrite;
  now: number;
}

export function openPostgresStore(connectionString: string, agingMs: number, poolMax: number): PostgresStore {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return new PostgresStore(db, POSTGRES_DIALECT, agingMs);
}
