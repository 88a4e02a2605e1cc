import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { emptyStatusCounts, type BatchItem, type BatchRecord } from '../domain/batch.js';
import type { TaskStatus } from '../domain/task.js';
import { enqueueDelivery } from './outbox/deliveries.js';
import type { BatchesTable, Database } from './schema.js';
import type { Batches } from './ports.js';

type Args<K extends keyof Batches> = Parameters<Batches[K]>[0];
import { PROCESSING, QUEUED } from './tasks/status-literals.js';
import type { Store } from './store.js';

/**
 * Batches: their row (written with their tasks, tasks/insert.ts), the counts of their tasks by status, their items
 * in order, and their completion. A batch's tasks are read in the range of their ids that its row keeps (no index on
 * the batch: migrations/011-batches.ts). A batch completes once every task in it is terminal: the first pass that
 * sees it so marks it, and queues its `batch.completed` delivery in the same transaction (the outbox), so the
 * delivery is made once whichever process sees it first, and a crash between the two cannot lose it.
 */

/** The tasks of a batch: its id range (on the tasks' id index) narrowed to its own by `batch_id`. */
function tasksOf(db: Kysely<Database>, batchId: string, firstTaskId: string, lastTaskId: string) {
  return db
    .selectFrom('tasks')
    .where('id', '>=', firstTaskId)
    .where('id', '<=', lastTaskId)
    .where('batch_id', '=', batchId);
}

async function withCounts(db: Kysely<Database>, row: BatchesTable): Promise<BatchRecord> {
  const rows =
    row.first_task_id === null || row.last_task_id === null
      ? []
      : await tasksOf(db, row.id, row.first_task_id, row.last_task_id)
          .select((eb) => ['status', eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('updated')])
          .groupBy('status')
          .execute();
  const counts = emptyStatusCounts();
  let updatedAt: number | null = null;
  for (const r of rows) {
    counts[r.status as TaskStatus] = Number(r.n);
    updatedAt = Math.max(updatedAt ?? 0, Number(r.updated));
  }
  return {
    id: row.id,
    size: Number(row.size),
    total: Number(row.total),
    firstTaskId: row.first_task_id,
    lastTaskId: row.last_task_id,
    webhookUrl: row.webhook_url,
    accountId: row.account_id,
    createdAt: Number(row.created_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    counts,
    updatedAt,
  };
}

/**
 * A batch of the account created at or after `notBefore` (within retention), with its counts. Another account's
 * batch is not read further than an unknown one (its counts are not computed), so that timing tells nothing.
 */
export async function getBatch(
  db: Kysely<Database>,
  { id, accountId, notBefore }: Args<'get'>,
): Promise<BatchRecord | undefined> {
  const row = await db
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row ? withCounts(db, row) : undefined;
}

/**
 * The account's batches created at or after `notBefore`, newest first, before the batch `beforeId` (the last of the
 * previous page) when given: at most `limit`, each with its counts, and whether more follow. Batch ids are
 * time-ordered like task ids (domain/task-id.ts), so id order is creation order; a batch is one row however many
 * tasks it has.
 */
export async function listBatches(
  db: Kysely<Database>,
  { accountId, notBefore, beforeId, limit }: Args<'list'>,
): Promise<{ batches: BatchRecord[]; more: boolean }> {
  const rows = await db
    .selectFrom('batches')
    .selectAll()
    .where('created_at', '>=', notBefore)
    .where('account_id', '=', accountId)
    .$if(beforeId !== null, (b) => b.where('id', '<', beforeId ?? ''))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  // One row more than the page says whether another follows; its counts are not read.
  const batches: BatchRecord[] = [];
  for (const row of rows.slice(0, limit)) batches.push(await withCounts(db, row));
  return { batches, more: rows.length > limit };
}

/** Up to `limit` items of a batch after item index `after`, in item order (items refused at submission have none). */
export async function batchItems(
  db: Kysely<Database>,
  { batch: b, after, limit, withPayload = false }: Args<'items'>,
): Promise<BatchItem[]> {
  if (b.firstTaskId === null || b.lastTaskId === null) return [];
  // The payload only when asked for: an analysis' payload (an answer to attribute) can be long.
  const payload = withPayload ? sql.ref<string | null>('payload') : sql<string | null>`null`;
  const rows = await tasksOf(db, b.id, b.firstTaskId, b.lastTaskId)
    .select(['batch_index', 'id', 'status', 'task_type', 'country', payload.as('payload')])
    .where('batch_index', '>', after)
    .orderBy('batch_index')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    index: Number(r.batch_index),
    taskId: r.id,
    status: r.status as TaskStatus,
    taskType: r.task_type,
    country: r.country ?? null,
    ...(withPayload ? { request: { payload: r.payload === null ? null : (JSON.parse(r.payload) as unknown) } } : {}),
  }));
}

/** The open batches (within retention, oldest first, at most `limit`) whose tasks are all terminal. */
export function readyBatchesQuery(
  db: Kysely<Database>,
  { notBefore, limit }: Pick<Args<'complete'>, 'notBefore' | 'limit'>,
) {
  return (
    db
      .selectFrom('batches as b')
      .selectAll('b')
      .where('b.completed_at', 'is', null)
      .where('b.created_at', '>=', notBefore)
      // Per open batch, its last task not yet terminal, looked for in the batch's id range on the tasks' key. A scalar
      // subquery, not NOT EXISTS: PostgreSQL (15) turns NOT EXISTS into an anti join and chose to read the whole table
      // (once, hashed, with statistics; once per open batch without them), a cost that grows with the retained tasks.
      // From the end: a batch's tasks are mostly claimed in the order submitted, so a batch under way has unfinished
      // tasks at its end and the scan stops at once; from the start it read every finished task first (each in every
      // version the claim and the finish left in the key), on every pass.
      .where((eb: ExpressionBuilder<Database & { b: BatchesTable }, 'b'>) =>
        eb(
          eb
            .selectFrom('tasks as t')
            .select('t.id')
            .whereRef('t.id', '>=', 'b.first_task_id')
            .whereRef('t.id', '<=', 'b.last_task_id')
            .whereRef('t.batch_id', '=', 'b.id')
            .where('t.status', 'in', [QUEUED, PROCESSING])
            .orderBy('t.id', 'desc')
            .limit(1),
          'is',
          null,
        ),
      )
      .orderBy('b.created_at')
      .limit(limit)
  );
}

/**
 * PostgreSQL, for the rest of the transaction: no bitmap scans. Without statistics on the tasks (a new database, or
 * autovacuum off) the planner read each open batch's whole id range with a bitmap scan and sorted it, on every pass:
 * about 1.8 ms a batch under load, 25-43 ms a pass with some 40 batches open. The ordered scan of the key from the
 * range's end stops at the first unfinished task it meets; it is the plan PostgreSQL picks by itself once the table is
 * analyzed (docs/benchmarks.md, "The claim ahead of the finish").
 */
export async function orderedScans(trx: Kysely<Database>): Promise<void> {
  await sql`set local enable_bitmapscan = off`.execute(trx);
}

/**
 * Completes up to `limit` open batches (within retention) whose tasks are all terminal: marks each, and queues
 * `webhookOf(batch)` unless that is null (a batch without a webhook). Returns the batches it completed. Safe in
 * several processes at once: the mark is conditional, so one of them completes a batch and the others skip it.
 */
export async function completeBatches(
  db: Kysely<Database>,
  { now, notBefore, limit, webhookOf }: Args<'complete'>,
  kind: Store['kind'],
): Promise<BatchRecord[]> {
  const ready =
    kind === 'postgres'
      ? await db.transaction().execute(async (trx) => {
          await orderedScans(trx);
          return readyBatchesQuery(trx, { notBefore, limit }).execute();
        })
      : await readyBatchesQuery(db, { notBefore, limit }).execute();
  const completed: BatchRecord[] = [];
  for (const row of ready) {
    const done = await db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('batches')
        .set({ completed_at: now })
        .where('id', '=', row.id)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return null;
      const batch = await withCounts(trx, { ...row, completed_at: now });
      const webhook = webhookOf(batch);
      if (webhook) await enqueueDelivery(trx, batch.id, webhook, now);
      return batch;
    });
    if (done) completed.push(done);
  }
  return completed;
}

/** The retention sweep's part for batches: deletes up to `limit` created before `before`, with their deliveries. */
export function deleteExpiredBatches(db: Kysely<Database>, a: Args<'deleteExpired'>): Promise<number> {
  return db.transaction().execute((trx) => deleteBatchesBefore(trx, a));
}

async function deleteBatchesBefore(trx: Kysely<Database>, { before, limit }: Args<'deleteExpired'>): Promise<number> {
  const ids = (
    await trx.selectFrom('batches').select('id').where('created_at', '<', before).limit(limit).execute()
  ).map((r) => r.id);
  if (ids.length === 0) return 0;
  await trx.deleteFrom('webhook_attempts').where('task_id', 'in', ids).execute();
  await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', ids).execute();
  const r = await trx.deleteFrom('batches').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}
