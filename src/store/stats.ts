import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { emptyStatusCounts } from '../domain/batch.js';
import type { Database } from './schema.js';
import type { GroupCommit } from './sqlite/group-commit.js';
import type { Stats, StatusCounts } from './ports.js';
import { PROCESSING, QUEUED } from './tasks/status-literals.js';

type QueueDepths = Record<string, { queued: number; processing: number }>;

/** Deliveries per outcome from counts per status (PENDING and SENDING are both pending). */
function webhookCounts(rows: Array<{ status: string; n: number | string | bigint }>): Stats['webhooks'] {
  const out = { pending: 0, delivered: 0, abandoned: 0 };
  for (const r of rows) {
    if (r.status === 'DELIVERED') out.delivered += Number(r.n);
    else if (r.status === 'ABANDONED') out.abandoned += Number(r.n);
    else out.pending += Number(r.n);
  }
  return out;
}

/**
 * Counts of tasks created since `notBefore` per status and engine, and of deliveries per outcome: of one account, or
 * of all when `accountId` is undefined.
 */
export async function stats(
  db: Kysely<Database>,
  { notBefore, accountId }: { notBefore: number; accountId?: string },
): Promise<Stats> {
  // One aggregate query, so every process sharing the store reports the same figures.
  let taskRows = db
    .selectFrom('tasks')
    .select(['task_type', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', notBefore)
    .groupBy(['task_type', 'status']);
  if (accountId !== undefined) taskRows = taskRows.where('account_id', '=', accountId);
  const rows = await taskRows.execute();
  const tasks = emptyStatusCounts();
  const byEngine: Record<string, StatusCounts> = {};
  for (const r of rows) {
    const s = r.status as keyof StatusCounts;
    const n = Number(r.n);
    tasks[s] += n;
    const counts = byEngine[r.task_type] ?? emptyStatusCounts();
    byEngine[r.task_type] = counts;
    counts[s] += n;
  }
  let hookRows = db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status');
  if (accountId !== undefined) hookRows = hookRows.where('account_id', '=', accountId);
  const hooks = await hookRows.execute();
  return { tasks, byEngine, webhooks: webhookCounts(hooks) };
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

interface CountRow {
  task_type: string;
  status: string;
  n: number;
}

/** Embedded store: from the trigger-kept counts, less the expired tasks the retention sweep has not deleted yet. */
export function statsSqlite(
  group: GroupCommit,
  s: StatsStatements,
  { notBefore, accountId }: { notBefore: number; accountId?: string },
): Promise<Stats> {
  return group.read(() => {
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
    const one = accountId !== undefined;
    const counted = (one ? s.taskCountsOf.all(accountId) : s.taskCounts.all()) as CountRow[];
    const expired = (one ? s.expiredCountsOf.all(notBefore, accountId) : s.expiredCounts.all(notBefore)) as CountRow[];
    for (const r of counted) add(r.task_type, r.status, r.n);
    for (const r of expired) add(r.task_type, r.status, -r.n);
    for (const [type, c] of Object.entries(byEngine))
      if (c.QUEUED + c.PROCESSING + c.COMPLETED + c.FAILED === 0) delete byEngine[type];
    const deliveries = (one ? s.deliveryCountsOf.all(accountId) : s.deliveryCounts.all()) as CountRow[];
    return { tasks, byEngine, webhooks: webhookCounts(deliveries) };
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
