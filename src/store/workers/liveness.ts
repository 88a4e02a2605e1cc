import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import type { FailedWrite, WorkerRegistration, WorkersReleased } from '../ports.js';
import { handBack } from '../tasks/reap.js';
import { PROCESSING } from '../tasks/status-literals.js';

/**
 * Worker liveness: each worker process registers (a `workers` row) and holds a signal of life the store can see, so
 * that what a dead worker held (its PROCESSING tasks, which also fill its engines' concurrency, and the webhook
 * deliveries its sender claimed) is handed back as soon as its death is seen, not when its leases run out.
 *
 * PostgreSQL: the signal is a session-level advisory lock held on a connection of the worker's own. The server
 * releases it the moment that connection ends, whether the process exited or was killed (a connection the network
 * dropped ends when TCP keepalive notices), so a death is seen by the next sweep of any other worker (every
 * `livenessMs`), with no clock and no heartbeat write per worker. Heartbeat rows would need a timeout long enough to
 * ride out a stall (so several seconds of delay) and a write per interval; the lock needs one idle connection.
 * SQLite: one process owns the file, so every holder that is not registered in this process is dead; a start-up
 * sweep hands a crashed run's tasks back at once.
 */

/** The advisory-lock namespace (first key) of this schema's workers: other schemas' workers are not seen. */
const NAMESPACE_TEXT = `(hashtext('aeq:workers:' || current_schema()) & 2147483647)`;
const NAMESPACE = sql.raw<number>(NAMESPACE_TEXT);

/** The worker row `w` whose advisory lock a session holds: the worker lives. */
const LOCK_HELD = sql`exists (
      select 1 from pg_locks l
      where l.locktype = 'advisory' and l.granted and l.objsubid = 2
        and l.database = (select oid from pg_database where datname = current_database())
        and l.classid = ${NAMESPACE}::oid and l.objid = w.lock_key::oid)`;

/** Registered workers whose lock no session holds: dead. Locked, so that two sweeps do not both hand them back. */
export async function deadWorkersPostgres(trx: Kysely<Database>): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select w.id from workers w
    where w.lock_key is not null and not ${LOCK_HELD}
    for update of w skip locked`.execute(trx);
  return r.rows.map((x) => x.id);
}

/**
 * PostgreSQL: the worker processes alive, which split each engine's concurrency. A dead worker's row stays until a
 * release of the dead removes it, which another worker may not have committed yet: counted, it made the workers that
 * started after a crash claim a third or a quarter of the slots each until their next liveness step.
 */
export async function liveWorkers(db: Kysely<Database>): Promise<number> {
  const r = await sql<{ n: string }>`
    select count(*) as n from workers w where w.lock_key is null or ${LOCK_HELD}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** SQLite: the holders of tasks and deliveries, and the registered workers, that are not alive in this process. */
export async function deadWorkersSqlite(trx: Kysely<Database>, alive: ReadonlySet<string>): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select worker_id as id from tasks where status = 'PROCESSING' and worker_id is not null
    union select holder from webhook_deliveries where status = 'SENDING' and holder is not null
    union select id from workers`.execute(trx);
  return r.rows.map((x) => x.id).filter((id) => !alive.has(id));
}

/**
 * In one transaction: the workers `find` names, then everything they held handed back (releaseWorkers), with what
 * else the database records for them (`releaseMore`: PostgreSQL's pool slots).
 */
export function releaseHeld(
  db: Kysely<Database>,
  find: (trx: Kysely<Database>) => Promise<string[]>,
  { now, failedWrite }: { now: number; failedWrite: FailedWrite },
  releaseMore?: (trx: Kysely<Database>, ids: readonly string[]) => Promise<void>,
): Promise<WorkersReleased> {
  return db.transaction().execute(async (trx) => {
    const ids = await find(trx);
    const released = await releaseWorkers(trx, ids, now, failedWrite);
    // Tasks before pool slots, the order of a finish (which frees the claim's slots after its task rows): the two
    // never wait on each other's locks the other way round.
    await releaseMore?.(trx, ids);
    return released;
  });
}

/**
 * Hands back everything the workers `ids` hold: their PROCESSING tasks (requeued, or failed with no attempt left,
 * fenced by each task's token), their SENDING deliveries (due again at once: an attempt they had started counts, so
 * the next is a new attempt number), and removes their rows.
 */
async function releaseWorkers(
  trx: Kysely<Database>,
  ids: readonly string[],
  now: number,
  failedWrite: FailedWrite,
): Promise<WorkersReleased> {
  if (ids.length === 0) return { workers: [], requeued: [], failed: [], deliveries: 0 };
  const held = await trx
    .selectFrom('tasks')
    .selectAll()
    .where('status', '=', PROCESSING)
    .where('worker_id', 'in', ids)
    .execute();
  const tasks = await handBack(trx, held, now, failedWrite);
  const d = await trx
    .updateTable('webhook_deliveries')
    // An expired lease: the senders' claim takes these first.
    .set({ lease_expires_at: 0, holder: null, updated_at: now })
    .where('status', '=', 'SENDING')
    .where('holder', 'in', ids)
    .executeTakeFirst();
  await trx.deleteFrom('workers').where('id', 'in', ids).execute();
  return { workers: [...ids], ...tasks, deliveries: Number(d.numUpdatedRows) };
}

/** A worker's identity: its pid for operators, and a random part so no two are alike. */
function newWorkerId(): string {
  return `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/** SQLite: the registration is the id being alive in this process's set (and a row, for listings). */
export async function registerWorkerSqlite(
  db: Kysely<Database>,
  alive: Set<string>,
  now: number,
): Promise<WorkerRegistration> {
  const id = newWorkerId();
  await db.insertInto('workers').values({ id, lock_key: null, started_at: now }).execute();
  alive.add(id);
  return {
    get id() {
      return id;
    },
    get live() {
      return alive.has(id);
    },
    async verify() {},
    async close() {
      alive.delete(id);
      await db.deleteFrom('workers').where('id', '=', id).execute();
    },
  };
}

/**
 * PostgreSQL: a registration holds its advisory lock on a connection of its own. If that connection is lost while
 * the process lives, the worker counts as dead: a sweep hands back what it held (the fence makes its late writes
 * change nothing; a task on its last attempt fails ENGINE_TIMEOUT, as after a lease ran out). It claims nothing
 * until it has registered again, under a new id, so what it claims next is not handed back.
 */
export class PostgresWorkerRegistration implements WorkerRegistration {
  private current = '';
  private client: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly connectionString: string,
    /** When the process first registered (kept in each row, registrations again after a lost signal included). */
    private readonly startedAt: number,
    private readonly onLost: (e: unknown) => void,
  ) {}

  static async open(
    connectionString: string,
    startedAt: number,
    onLost: (e: unknown) => void,
  ): Promise<PostgresWorkerRegistration> {
    const r = new PostgresWorkerRegistration(connectionString, startedAt, onLost);
    await r.register();
    return r;
  }

  get id(): string {
    return this.current;
  }

  /** False from a lost signal until registered again: the worker claims nothing meanwhile. */
  get live(): boolean {
    return this.client !== null;
  }

  /**
   * Uses the connection, so that one the network dropped silently is found out (and the worker registers again)
   * rather than left looking alive to this process while the server has ended it.
   */
  async verify(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query('select 1');
    } catch (e) {
      this.lost(client, e);
    }
  }

  /** Lock first, then the row: a row is never seen without its lock while the worker lives. */
  private async register(): Promise<void> {
    // keepAlive: a dead peer is noticed by TCP too; no idle timeout may end the session that holds the lock.
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('liveness connection ended')));
    await client.connect();
    try {
      await client.query(`select set_config('idle_session_timeout', '0', false)`).catch(() => undefined);
      const k = await client.query<{ key: string; ns: number }>(
        `select nextval('aeq_worker_keys') as key, ${NAMESPACE_TEXT} as ns`,
      );
      const { key, ns } = k.rows[0] as { key: string; ns: number };
      await client.query('select pg_advisory_lock($1::integer, $2::integer)', [ns, Number(key)]);
      const id = newWorkerId();
      await client.query('insert into workers (id, lock_key, started_at) values ($1, $2, $3)', [
        id,
        key,
        this.startedAt,
      ]);
      if (this.closed) throw new Error('registration closed while registering');
      this.current = id;
      this.client = client;
    } catch (e) {
      // Ending the session drops its lock; a row left behind is then seen as a dead worker's and removed.
      await client.end().catch(() => undefined);
      throw e;
    }
  }

  private lost(client: pg.Client, e: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    this.onLost(e);
    void this.reRegister(0);
  }

  private async reRegister(attempt: number): Promise<void> {
    if (this.closed) return;
    try {
      await this.register();
    } catch {
      if (this.closed) return;
      setTimeout(() => void this.reRegister(attempt + 1), Math.min(5000, 200 * 2 ** attempt)).unref();
    }
  }

  /** The row first, then the lock (by ending the connection). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.query('delete from workers where id = $1', [this.current]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
