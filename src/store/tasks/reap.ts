import type { Kysely } from 'kysely';
import { taskFromRow } from '../rows.js';
import type { Database, TasksTable } from '../schema.js';
import type { FailedWrite, ReapResult } from '../ports.js';
import { writeTerminal } from './finish.js';
import { heldUnderLease } from './lease-fence.js';
import { PROCESSING } from './status-literals.js';

/** Expired leases handled per call; any more wait for the reaper's next run. */
const REAP_BATCH = 500;

/**
 * Held tasks requeued per statement: each is a condition of its own in the statement's `or`, which SQLite parses as a
 * tree as deep as the conditions are many (its limit: 1,000); a dead worker may hold more than that.
 */
const REQUEUE_CHUNK = 200;

/**
 * The held tasks whose lease expired before `now`, at most REAP_BATCH. Read through the index of PROCESSING tasks
 * (`tasks_running`, by status literal: status-literals.ts), which holds at most the engines' concurrency; each lease
 * is checked on its row. PostgreSQL has no index on the expiry (postgres/migrations/031-lean-task-indexes.ts).
 */
export function expiredLeasesQuery(db: Kysely<Database>, now: number) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('status', '=', PROCESSING)
    .where('lease_expires_at', '<', now)
    .limit(REAP_BATCH);
}

/**
 * Tasks whose lease expired (their worker died) go back to QUEUED, or FAILED when they have no
 * attempt left. Both writes are fenced on the stale token the reaper read, so a worker that comes
 * back cannot also finish the task, and a task claimed again meanwhile is left alone.
 */
export function reapExpiredLeases(
  db: Kysely<Database>,
  { now, failedWrite }: { now: number; failedWrite: FailedWrite },
): Promise<ReapResult> {
  return db.transaction().execute(async (trx) => {
    const expired = await expiredLeasesQuery(trx, now).execute();
    return handBack(trx, expired, now, failedWrite);
  });
}

/**
 * Hands held tasks back: each to QUEUED, due now, or to FAILED (with its webhook) when it has no attempt left. Fenced
 * on the token read from its row, so a task finished or claimed again since is left alone. The requeues are one
 * statement, each row under its own fence: a release of a dead worker's 128 tasks sent 128 statements while every
 * slot they held stayed taken (docs/benchmarks.md, the all-dead recovery).
 */
export async function handBack(
  trx: Kysely<Database>,
  rows: readonly TasksTable[],
  now: number,
  failedWrite: FailedWrite,
): Promise<ReapResult> {
  const result: ReapResult = { requeued: [], failed: [] };
  const requeue: TasksTable[] = [];
  for (const row of rows) {
    const task = taskFromRow(row);
    if (task.attempts < task.maxAttempts) requeue.push(row);
    else if (await writeTerminal(trx, task.id, row.lease_token, failedWrite(task), now)) result.failed.push(task.id);
  }
  for (let i = 0; i < requeue.length; i += REQUEUE_CHUNK) {
    const chunk = requeue.slice(i, i + REQUEUE_CHUNK);
    const back = await trx
      .updateTable('tasks')
      .set({
        status: 'QUEUED',
        lease_token: null,
        lease_expires_at: null,
        worker_id: null,
        available_at: now,
        updated_at: now,
      })
      .where((eb) => eb.or(chunk.map((row) => heldUnderLease(eb, row.id, row.lease_token))))
      .returning('id')
      .execute();
    const ids = new Set(back.map((r) => r.id));
    for (const row of chunk) if (ids.has(row.id)) result.requeued.push(row.id);
  }
  return result;
}
