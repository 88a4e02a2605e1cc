import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClaimedTask } from '../../domain/task.js';
import { claimedFromRow } from '../rows.js';
import type { PreparedQuery } from '../postgres/prepared.js';
import type { TasksTable } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { ClaimRequest } from '../ports.js';

/**
 * The claim: count the engine's PROCESSING tasks and move at most `concurrency - running` due QUEUED tasks (by
 * sort_key) to PROCESSING under a fresh lease token, counting the attempt, with nothing else claiming for the engine
 * in between. The count lives here, so the concurrency holds across processes. Each store has its own form: SQLite's
 * write transaction is exclusive by itself; PostgreSQL's is a stored function that takes a per-engine lock.
 *
 * PostgreSQL: the claim in one statement, a call of the stored function (postgres/migrations/021-claim-function.ts),
 * which holds the per-engine lock only while it runs.
 */
export async function claimTasksPostgres(q: PreparedQuery, agingMs: number, a: ClaimRequest): Promise<ClaimedTask[]> {
  const r = await q<TasksTable>('aeq_claim_tasks', 'select * from aeq_claim_tasks($1, $2, $3, $4, $5, $6, $7)', [
    a.taskType,
    a.limit,
    a.concurrency,
    a.now,
    a.now + a.leaseMs,
    a.workerId,
    randomUUID(),
  ]);
  return inClaimOrder(r.rows.map(claimedFromRow), agingMs);
}

/** In claim order (sort_key), computed from numbers: PostgreSQL returns bigint columns as text (rows.ts). */
function inClaimOrder(tasks: ClaimedTask[], agingMs: number): ClaimedTask[] {
  return tasks.sort((x, y) => x.createdAt - x.priority * agingMs - (y.createdAt - y.priority * agingMs));
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
  a: ClaimRequest,
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
