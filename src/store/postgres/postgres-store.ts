import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { POSTGRES_DIALECT } from '../dialect.js';
import { KyselyStore } from '../kysely-store.js';
import { acquirePoolLeasePostgres, postgresReleaser } from '../pool-leases.js';
import type { Database } from '../schema.js';
import type { TerminalWrite } from '../store.js';
import { postgresFinisher } from '../tasks/finish.js';

/**
 * The shared store for several API and worker processes: the shared Kysely form of every operation,
 * with PostgreSQL's capabilities (src/store/dialect.ts: claims serialised per task type by an
 * advisory lock, candidate rows locked with FOR UPDATE SKIP LOCKED). Its own forms: a pool lease is
 * one call of a stored function, and the terminal writes without a webhook and the lease releases
 * asked for during one turn of the event loop go to the server as one statement each.
 */
export class PostgresStore extends KyselyStore {
  private readonly finish = postgresFinisher(this.db);
  private readonly release = postgresReleaser(this.db);

  override finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean> {
    return this.finish(id, leaseToken, write, now);
  }
  override acquirePoolLease(
    resourceId: string,
    capacity: number,
    now: number,
    expiresAt: number,
  ): Promise<string | null> {
    return acquirePoolLeasePostgres(this.db, resourceId, capacity, now, expiresAt);
  }
  override releasePoolLease(token: string): Promise<void> {
    return this.release(token);
  }
}

export function openPostgresStore(connectionString: string, agingMs: number, poolMax: number): PostgresStore {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return new PostgresStore(db, POSTGRES_DIALECT, agingMs);
}
