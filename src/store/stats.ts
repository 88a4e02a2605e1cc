import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { emptyStatusCounts } from '../domain/batch.js';
import type { Database } from './schema.js';
import type { GroupCommit } from './sqlite/group-commit.js';
import type { Stats, StatusCounts } from './ports.js';
import { createdBeforeByKey, keyOrderScans, unorderedCreatedBefore } from './tasks/delete.js';
import { PROCESSING, QUEUED } from './tasks/status-literals.js';

type QueueDepths = Record<string, { queued: number; processing: number }>;

/** Deliveries per outcome from counts per status (PENDING and SENDING are both pending). */
function webhookCounts(rows: ReadonlyArray<{ status: string; n: number | string | bigint }>): Stats['webhooks'] {
  const out = { pending: 0, delivered: 0, abandoned: 0 };
  for (const r of rows) {
    if (r.status === 'DELIVERED') out.delivered += Number(r.n);
    else if (r.status === 'ABANDONED') out.abandoned += Number(r.n);
    else out.pending += Number(r.n);
  }
  return out;
}

interface CountRow {
  task_type: string;
  status: string;
  n: number | string | bigint;
}

/**
 * The figures of /stats from running counts: the counts of every task there is, less those of the tasks created
 * before `notBefore` that the retention sweep has not deleted yet; engines with no task left out.
 */
function statsFromCounts(
  counted: readonly CountRow[],
  expired: readonly CountRow[],
  deliveries: ReadonlyArray<{ status: string; n: number | string | bigint }>,
): Stats {
  const tasks = emptyStatusCounts();
  const byEngine: Record<string, StatusCounts> = {};
  const add = (type: string, status: string, n: number) => {
    if (!(status in tasks)) return;
    const st = status as keyof StatusCounts;
    tasks[st] += n;
    const counts = byEngine[type] ?? emptyStatusCounts();
    byEngine[type] = counts;
    counts[st] += n;
  };
  for (const r of counted) add(r.task_type, r.status, Number(r.n));
  for (const r of expired) add(r.task_type, r.status, -Number(r.n));
  for (const [type, c] of Object.entries(byEngine))
    if (c.QUEUED + c.PROCESSING + c.COMPLETED + c.FAILED === 0) delete byEngine[type];
  return { tasks, byEngine, webhooks: webhookCounts(deliveries) };
}

/**
 * PostgreSQL: the counts of one account's tasks (created at or after `notBefore`) per status and engine and of its
 * deliveries per outcome, or of all accounts when `accountId` is undefined, from the rows the statement triggers add
 * (postgres/migrations/032-status-count-deltas.ts), not from an aggregate over the tasks. The expired tasks still
 * there are read from the start of the primary key, as the sweep reads them (store/tasks/delete.ts). One snapshot
 * for the three reads, so a task that changes status between them is counted once.
 */
export async function stats(
  db: Kysely<Database>,
  { notBefore, accountId }: { notBefore: number; accountId?: string },
): Promise<Stats> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await keyOrderScans(trx);
      const scope = (kind: 'task' | 'delivery') =>
        accountId === undefined ? sql`scope like ${`${kind}:%`}` : sql`scope = ${`${kind}:${accountId}`}`;
      const counted = await sql<CountRow>`select task_type, status, sum(n) as n from status_count_deltas
        where ${scope('task')} group by task_type, status`.execute(trx);
      const expired = await expiredCountsQuery(notBefore, accountId).execute(trx);
      const deliveries = await sql<{ status: string; n: string }>`select status, sum(n) as n from status_count_deltas
        where ${scope('delivery')} group by status`.execute(trx);
      return statsFromCounts(counted.rows, expired.rows, deliveries.rows);
    });
}

/**
 * PostgreSQL: the counts per engine and status of the tasks created before `notBefore` that are still there (of one
 * account, or of all), read as the retention sweep reads them (store/tasks/delete.ts): the time-ordered ids from the
 * start of the primary key, the others by `tasks_unordered_created`. Under keyOrderScans, never the whole table.
 */
export function expiredCountsQuery(notBefore: number, accountId?: string) {
  const ofAccount = accountId === undefined ? sql`` : sql`and account_id = ${accountId}`;
  return sql<CountRow>`select task_type, status, count(*) as n from (
      select task_type, status from tasks
        where ${createdBeforeByKey(notBefore)} and substr(id, 15, 1) = '7' ${ofAccount}
      union all
      select task_type, status from tasks where ${unorderedCreatedBefore(notBefore)} ${ofAccount}
    ) as e group by task_type, status`;
}

/**
 * PostgreSQL: the rows of each count that has more than one added up into one, and counts of zero dropped
 * (postgres/migrations/032-status-count-deltas.ts), so that a read sums a few rows per count and a fold rewrites only
 * the counts that changed. One process folds at a time (the others skip: the next fold takes what they would have);
 * rows added while it runs are left for the next. Returns the rows the fold wrote.
 */
export async function foldStatusCounts(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const lock = await sql<{
      got: boolean;
    }>`select pg_try_advisory_xact_lock(hashtext('aeq:fold-counts')) as got`.execute(trx);
    if (!lock.rows[0]?.got) return 0;
    const r = await sql`with changed as (
        select scope, task_type, status from status_count_deltas group by scope, task_type, status having count(*) > 1),
      gone as (
        delete from status_count_deltas d using changed c
        where d.scope = c.scope and d.task_type = c.task_type and d.status = c.status
        returning d.scope, d.task_type, d.status, d.n)
      insert into status_count_deltas (scope, task_type, status, n)
      select scope, task_type, status, sum(n) from gone group by scope, task_type, status having sum(n) <> 0`.execute(
      trx,
    );
    return Number(r.numAffectedRows ?? 0);
  });
}

/**
 * The query of `queuedAndRunning`: each state counted on its own, by literal, so that each part reads its partial
 * index (`tasks_claim`, `tasks_running`: migrations/007-partial-task-indexes.ts), which holds only the tasks of that
 * state. As one query with `status in (…)` the planner read every retained task on each read of `/capacity`.
 */
export function queueDepthQuery(db: Kysely<Database>, notBefore: number) {
  const inState = (status: typeof QUEUED | typeof PROCESSING) =>
    db
      .selectFrom('tasks')
      .select(['task_type', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '=', status)
      .where('created_at', '>=', notBefore)
      .groupBy(['task_type', 'status']);
  return inState(QUEUED).unionAll(inState(PROCESSING));
}

/** QUEUED and PROCESSING tasks per engine (engines with neither are left out). */
export async function queuedAndRunning(
  db: Kysely<Database>,
  { notBefore }: { notBefore: number },
): Promise<QueueDepths> {
  const rows = await queueDepthQuery(db, notBefore).execute();
  const out: QueueDepths = {};
  for (const r of rows) {
    const e = out[r.task_type] ?? { queued: 0, processing: 0 };
    out[r.task_type] = e;
    if (r.status === 'QUEUED') e.queued = Number(r.n);
    else e.processing = Number(r.n);
  }
  return out;
}

/**
 * Embedded store: the counts kept by triggers per account (sqlite/migrations/014-account-counts.ts), prepared once;
 * `…Of` read one account's, the others add up every account's.
 */
export function prepareStats(db: BetterSqlite3.Database) {
  return {
    taskCounts: db.prepare(`select task_type, status, n from status_counts where scope like 'task:%'`),
    taskCountsOf: db.prepare(`select task_type, status, n from status_counts where scope = 'task:' || ?`),
    expiredCounts: db.prepare(
      'select task_type, status, count(*) as n from tasks where created_at < ? group by task_type, status',
    ),
    expiredCountsOf: db.prepare(
      `select task_type, status, count(*) as n from tasks where created_at < ? and account_id = ?
      group by task_type, status`,
    ),
    deliveryCounts: db.prepare(`select status, n from status_counts where scope like 'delivery:%'`),
    deliveryCountsOf: db.prepare(`select status, n from status_counts where scope = 'delivery:' || ?`),
  };
}

type StatsStatements = ReturnType<typeof prepareStats>;

/** Embedded store: from the trigger-kept counts, less the expired tasks the retention sweep has not deleted yet. */
export function statsSqlite(
  group: GroupCommit,
  s: StatsStatements,
  { notBefore, accountId }: { notBefore: number; accountId?: string },
): Promise<Stats> {
  return group.read(() => {
    const one = accountId !== undefined;
    const counted = (one ? s.taskCountsOf.all(accountId) : s.taskCounts.all()) as CountRow[];
    const expired = (one ? s.expiredCountsOf.all(notBefore, accountId) : s.expiredCounts.all(notBefore)) as CountRow[];
    const deliveries = (one ? s.deliveryCountsOf.all(accountId) : s.deliveryCounts.all()) as CountRow[];
    return statsFromCounts(counted, expired, deliveries);
  });
}

/** Embedded store: `queuedAndRunning` from the same counts. */
export async function queuedAndRunningSqlite(
  group: GroupCommit,
  s: StatsStatements,
  { notBefore }: { notBefore: number },
): Promise<QueueDepths> {
  const st = await statsSqlite(group, s, { notBefore });
  const out: QueueDepths = {};
  for (const [type, c] of Object.entries(st.byEngine))
    if (c.QUEUED + c.PROCESSING > 0) out[type] = { queued: c.QUEUED, processing: c.PROCESSING };
  return out;
}
