import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { POSTGRES_DIALECT } from '../dialect.js';
import { KyselyStore } from '../kysely-store.js';
import { postgresAcquirer, postgresReleaser, releaseSlotsOf } from '../pool-leases.js';
import type { Database } from '../schema.js';
import type { InsertOutcome, Store, TerminalWrite, WorkerRegistration } from '../store.js';
import { insertTasksPostgres } from '../tasks/insert.js';
import type { NewBatch } from '../../domain/batch.js';
import { claimTasksPostgres } from '../tasks/claim.js';
import { heartbeatPostgres } from '../tasks/heartbeat.js';
import type { ClaimedTask, NewTask } from '../../domain/task.js';
import { deadWorkersPostgres, PostgresWorkerRegistration } from '../workers/liveness.js';
import { postgresFinisher } from '../tasks/finish.js';
import { preparedQuery, type PreparedQuery } from './prepared.js';

/**
 * The shared store for several API and worker processes: the shared Kysely form of every operation, with
 * PostgreSQL's capabilities (src/store/dialect.ts). Its own forms, each one statement and one round trip on the hot
 * path: a claim is a call of a stored function (the per-engine lock held only while it runs), as is a pool lease; the
 * terminal writes (with their webhooks' outbox rows) and the lease releases asked for during one turn of the event
 * loop go to the server as one statement each; a heartbeat extends all its leases in one statement; and each worker
 * process holds a liveness lock on a connection of its own (store/workers/liveness.ts).
 */
export class PostgresStore extends KyselyStore {
  /** The hot path's statements, prepared once per connection of the pool Kysely uses. */
  private readonly q: PreparedQuery;
  private readonly finish: ReturnType<typeof postgresFinisher>;
  private readonly release: ReturnType<typeof postgresReleaser>;
  private readonly acquire: ReturnType<typeof postgresAcquirer>;

  constructor(
    db: Kysely<Database>,
    pool: pg.Pool,
    agingMs: number,
    /** For the connection each worker's liveness lock is held on. */
    private readonly connectionString: string,
  ) {
    super(db, POSTGRES_DIALECT, agingMs);
    this.q = preparedQuery(pool);
    this.finish = postgresFinisher(this.q);
    this.release = postgresReleaser(this.q);
    this.acquire = postgresAcquirer(this.q);
  }

  override insertTasks(tasks: NewTask[], notBefore = 0, batch?: NewBatch): Promise<InsertOutcome[]> {
    return insertTasksPostgres(this.db, this.q, this.agingMs, tasks, notBefore, batch);
  }
  override claimTasks(a: Parameters<Store['claimTasks']>[0]): Promise<ClaimedTask[]> {
    return claimTasksPostgres(this.q, this.agingMs, a);
  }
  override heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number> {
    return heartbeatPostgres(this.q, leases, leaseExpiresAt);
  }
  override registerWorker(now: number, onLost: (e: unknown) => void): Promise<WorkerRegistration> {
    return PostgresWorkerRegistration.open(this.connectionString, now, onLost);
  }
  protected override deadWorkers(trx: Kysely<Database>): Promise<string[]> {
    return deadWorkersPostgres(trx);
  }
  /** The exit addresses and accounts they leased, recorded in pool slots (pool-leases.ts). */
  protected override releaseMoreOf(trx: Kysely<Database>, ids: readonly string[]): Promise<void> {
    return releaseSlotsOf(trx, ids);
  }

  override finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean> {
    return this.finish(id, leaseToken, write, now);
  }
  override acquirePoolLease(
    resourceId: string,
    capacity: number,
    now: number,
    expiresAt: number,
    holder: string | null = null,
  ): Promise<string | null> {
    return this.acquire(resourceId, capacity, now, expiresAt, holder);
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
  return new PostgresStore(db, pool, agingMs, connectionString);
}
