import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { ClaimedTask } from '../../domain/task.js';
import { serialised, type StoreDialect } from '../dialect.js';
import { claimedFromRow } from '../rows.js';
import type { Database, TasksTable } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { Store } from '../store.js';
import { PROCESSING, QUEUED } from './status-literals.js';

type ClaimArgs = Parameters<Store['claimTasks']>[0];

/** Every tasks column, `id` qualified: the claim joins a CTE that also has an `id` (SQLite cannot RETURN `tasks.*`). */
const TASK_COLUMNS = [
  'tasks.id',
  'task_type',
  'status',
  'priority',
  'sort_key',
  'payload',
  'idempotency_key',
  'webhook_url',
  'country',
  'created_at',
  'updated_at',
  'available_at',
  'attempts',
  'max_attempts',
  'lease_token',
  'lease_expires_at',
  'worker_id',
  'result',
  'error',
  'credits_to_charge',
  'credits_charged',
  'finished_at',
  'account_id',
] as const;

/**
 * The claim: in one transaction serialised per task type, count the type's PROCESSING tasks and
 * move at most `concurrency - running` due QUEUED tasks (by sort_key) to PROCESSING under a fresh
 * lease token, counting the attempt. The count lives here, so the concurrency holds across processes.
 */
export function claimTasks(
  db: Kysely<Database>,
  dialect: StoreDialect,
  agingMs: number,
  a: ClaimArgs,
): Promise<ClaimedTask[]> {
  return serialised(db, dialect, a.taskType, async (trx) => {
    const running = await trx
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('task_type', '=', a.taskType)
      .where('status', '=', PROCESSING)
      .executeTakeFirstOrThrow();
    const room = Math.min(a.limit, a.concurrency - Number(running.n));
    if (room <= 0) return [];
    let candidates = trx
      .selectFrom('tasks')
      .select('id')
      .where('task_type', '=', a.taskType)
      .where('status', '=', QUEUED)
      .where('available_at', '<=', a.now)
      .orderBy('sort_key')
      .limit(room);
    if (dialect.supportsSkipLocked) candidates = candidates.forUpdate().skipLocked();
    const token = randomUUID();
    // A materialized CTE, not `id IN (subquery)`: PostgreSQL may run an IN-subquery with LIMIT
    // and SKIP LOCKED more than once and then claim more rows than the limit (seen in tests).
    const rows = await trx
      .with(
        (cte) => cte('picked').materialized(),
        () => candidates,
      )
      .updateTable('tasks')
      .from('picked')
      .set((eb) => ({
        status: 'PROCESSING',
        lease_token: token,
        lease_expires_at: a.now + a.leaseMs,
        worker_id: a.workerId,
        attempts: eb('tasks.attempts', '+', 1),
        updated_at: a.now,
      }))
      .whereRef('tasks.id', '=', 'picked.id')
      .where('tasks.status', '=', 'QUEUED')
      .returning(TASK_COLUMNS)
      .execute();
    // In claim order (sort_key), computed from numbers: PostgreSQL returns bigint columns as text (rows.ts).
    return rows
      .map(claimedFromRow)
      .sort((x, y) => x.createdAt - x.priority * agingMs - (y.createdAt - y.priority * agingMs));
  });
}

/** Embedded store: the claim's statements, prepared once. */
export function prepareClaim(db: BetterSqlite3.Database) {
  return {
    countProcessing: db.prepare(`select count(*) as n from tasks where task_type = ? and status = 'PROCESSING'`),
    // SQLite runs the IN-subquery once, so LIMIT bounds the claim (PostgreSQL needs the CTE form).
    claim: db.prepare(
      `update tasks set status = 'PROCESSING', lease_token = @token, ` +
        `lease_expires_at = @expires, worker_id = @worker,
        attempts = attempts + 1, updated_at = @now
      where id in (select id from tasks where task_type = @type and ` +
        `status = 'QUEUED' and available_at <= @now order by sort_key limit @room)
        and status = 'QUEUED'
      returning *`,
    ),
  };
}

/**
 * Embedded store: the same claim on prepared statements. A SQLite write transaction is already
 * exclusive. It commits at once when no other write waits (an idle worker should start now).
 */
export function claimTasksSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareClaim>,
  a: ClaimArgs,
): Promise<ClaimedTask[]> {
  return group.writeNowIfIdle(() => {
    const running = (s.countProcessing.get(a.taskType) as { n: number }).n;
    const room = Math.min(a.limit, a.concurrency - running);
    if (room <= 0) return [];
    const rows = s.claim.all({
      token: randomUUID(),
      expires: a.now + a.leaseMs,
      worker: a.workerId,
      now: a.now,
      type: a.taskType,
      room,
    }) as TasksTable[];
    return rows.sort((x, y) => x.sort_key - y.sort_key).map(claimedFromRow);
  });
}
