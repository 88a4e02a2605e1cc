import BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { PreparedQuery } from '../postgres/prepared.js';
import type { NewBatch } from '../../domain/batch.js';
import type { NewTask } from '../../domain/task.js';
import { taskIdKey } from '../../domain/task-id.js';
import { taskFromRow } from '../rows.js';
import type { BatchesTable, Database, TasksTable } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { InsertOutcome, TaskQueue } from '../ports.js';

type InsertRequest = Parameters<TaskQueue['insert']>[0];
import { deleteTaskSqlite, deleteTasks, prepareDeleteTask } from './delete.js';

/** Rows per multi-row insert: 23 columns each, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;

/** A new task's columns: all but its artefacts' list, which only its terminal write sets. */
type NewTaskRow = Omit<TasksTable, 'artifacts'>;

/** A new task's row: QUEUED, due now, its claim order (sort_key) fixed at insert. */
function taskRow(t: NewTask, agingMs: number): NewTaskRow {
  return {
    id: t.id,
    task_type: t.taskType,
    status: 'QUEUED',
    priority: t.priority,
    sort_key: t.createdAt - t.priority * agingMs,
    payload: JSON.stringify(t.payload),
    idempotency_key: t.idempotencyKey,
    webhook_url: t.webhookUrl,
    country: t.country,
    created_at: t.createdAt,
    updated_at: t.createdAt,
    available_at: t.availableAt ?? t.createdAt,
    attempts: 0,
    max_attempts: t.maxAttempts,
    lease_token: null,
    lease_expires_at: null,
    worker_id: null,
    result: null,
    error: null,
    failure: null,
    credits_to_charge: t.creditsToCharge,
    credits_charged: null,
    finished_at: null,
    account_id: t.accountId,
    batch_id: t.batch?.id ?? null,
    batch_index: t.batch?.index ?? null,
  };
}

/** A batch's row: how many of its tasks were accepted in the same transaction, and the range of their ids. */
function batchRow(b: NewBatch, out: InsertOutcome[]): BatchesTable {
  let total = 0;
  let first: string | null = null;
  let last: string | null = null;
  for (const o of out) {
    if (!o.ok) continue;
    total++;
    if (first === null || o.task.id < first) first = o.task.id;
    if (last === null || o.task.id > last) last = o.task.id;
  }
  return {
    id: b.id,
    size: b.size,
    total,
    first_task_id: first,
    last_task_id: last,
    webhook_url: b.webhookUrl,
    created_at: b.createdAt,
    account_id: b.accountId,
    completed_at: null,
  };
}

/**
 * Inserts in one transaction. ON CONFLICT DO NOTHING makes two submits with one idempotency key
 * race-safe: exactly one row wins. A key held only by a task older than `notBefore` (expired, not
 * swept yet) is taken over. A batch's row goes in the same transaction, with the number of its tasks accepted.
 */
async function insertTasks(
  db: Kysely<Database>,
  agingMs: number,
  { tasks, notBefore = 0, batch }: InsertRequest,
): Promise<InsertOutcome[]> {
  if (tasks.length === 0 && !batch) return [];
  const rows = tasks.map((t) => taskRow(t, agingMs));
  return db.transaction().execute(async (trx) => {
    // One multi-row statement per chunk (a round trip per chunk, not per task); the rows it skipped
    // (a key already taken, or taken earlier in this batch) are settled one by one, in order.
    const inserted = new Set<string>();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const r = await trx
        .insertInto('tasks')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['account_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing(),
        )
        .returning('id')
        .execute();
      for (const { id } of r) inserted.add(id);
    }
    const out: InsertOutcome[] = [];
    for (const row of rows)
      out.push(inserted.has(row.id) ? { ok: true, task: taskFromRow(row) } : await insertSkipped(trx, row, notBefore));
    if (batch) await trx.insertInto('batches').values(batchRow(batch, out)).execute();
    return out;
  });
}

/**
 * PostgreSQL: a submit whose tasks carry no idempotency key (nothing can conflict, so every row is accepted) is one
 * statement, autocommitted: the tasks as one JSON document (`json_to_recordset`: a fixed statement, not 25 parameters
 * per row, parsed by PostgreSQL rather than escaped by the driver) and the batch's row in the same statement. With
 * keys, the shared form above settles conflicts row by row.
 */
export async function insertTasksPostgres(
  db: Kysely<Database>,
  q: PreparedQuery,
  agingMs: number,
  a: InsertRequest,
): Promise<InsertOutcome[]> {
  const { tasks, batch } = a;
  if (tasks.length === 0 || tasks.some((t) => t.idempotencyKey !== null)) return insertTasks(db, agingMs, a);
  const rows = tasks.map((t) => taskRow(t, agingMs));
  const out: InsertOutcome[] = rows.map((row) => ({ ok: true, task: taskFromRow(row) }));
  const batches = batch ? [batchRow(batch, out)] : [];
  await q('aeq_insert_tasks', INSERT_ALL, [JSON.stringify(rows.map(insertedColumns)), JSON.stringify(batches)]);
  return out;
}

/** The tasks of a submit ($1, a JSON array of their varying columns) and its batch's row ($2: none or one). */
const INSERT_ALL = `
  with t as (
    insert into tasks (id, task_type, status, priority, sort_key, payload, idempotency_key, webhook_url, country,
      created_at, updated_at, available_at, attempts, max_attempts, lease_token, lease_expires_at, worker_id,
      result, error, credits_to_charge, credits_charged, finished_at, account_id, batch_id, batch_index)
    select v.id, v.task_type, 'QUEUED', v.priority, v.sort_key, v.payload, null, v.webhook_url, v.country,
      v.created_at, v.created_at, v.created_at, 0, v.max_attempts, null, null, null,
      null, null, v.credits_to_charge, null, null, v.account_id, v.batch_id, v.batch_index
    from json_to_recordset($1::json)
      as v (id text, task_type text, priority integer, sort_key bigint, payload text, webhook_url text, country text,
        created_at bigint, max_attempts integer, credits_to_charge integer, account_id text, batch_id text,
        batch_index integer)
    returning 1
  ),
  b as (
    insert into batches (id, size, total, first_task_id, last_task_id, webhook_url, created_at, account_id,
      completed_at)
    select b.id, b.size, b.total, b.first_task_id, b.last_task_id, b.webhook_url, b.created_at, b.account_id, null
    from json_to_recordset($2::json)
      as b (id text, size integer, total integer, first_task_id text, last_task_id text, webhook_url text,
        created_at bigint, account_id text)
  )
  select count(*) as n from t`;

/** The columns of a new task that are not the same for every new task (the rest are literals of the insert). */
function insertedColumns(r: NewTaskRow) {
  return {
    id: r.id,
    task_type: r.task_type,
    priority: r.priority,
    sort_key: r.sort_key,
    payload: r.payload,
    webhook_url: r.webhook_url,
    country: r.country,
    created_at: r.created_at,
    max_attempts: r.max_attempts,
    credits_to_charge: r.credits_to_charge,
    account_id: r.account_id,
    batch_id: r.batch_id,
    batch_index: r.batch_index,
  };
}

/** A row whose idempotency key was taken: refused, unless the holder has expired (then the key is free again). */
async function insertSkipped(trx: Kysely<Database>, row: NewTaskRow, notBefore: number): Promise<InsertOutcome> {
  const existing = await trx
    .selectFrom('tasks')
    .select(['id', 'created_at'])
    .where('account_id', '=', row.account_id)
    .where('idempotency_key', '=', row.idempotency_key)
    .executeTakeFirst();
  if (existing && Number(existing.created_at) < notBefore) {
    // Expired but not swept yet.
    await deleteTasks(trx, [existing.id]);
    const again = await trx
      .insertInto('tasks')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['account_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (again) return { ok: true, task: taskFromRow(row) };
  }
  return { ok: false, reason: 'DUPLICATE_KEY', existingId: existing?.id ?? '' };
}

/**
 * Embedded store: one task's row; of two with one idempotency key in an account, the second inserts nothing. Run with
 * the rowid and the row (taskRow).
 */
const INSERT_SQLITE = `
  insert into tasks (rowid, id, task_type, status, priority, sort_key, payload, idempotency_key, webhook_url, country, created_at, updated_at, available_at, attempts, max_attempts, lease_token, lease_expires_at, worker_id, result, error, credits_to_charge, credits_charged, finished_at, batch_id, batch_index, account_id)
  values (?, @id, @task_type, @status, @priority, @sort_key, @payload, @idempotency_key, @webhook_url, @country, @created_at, @updated_at, @available_at, @attempts, @max_attempts, @lease_token, @lease_expires_at, @worker_id, @result, @error, @credits_to_charge, @credits_charged, @finished_at, @batch_id, @batch_index, @account_id)
  on conflict (account_id, idempotency_key) where idempotency_key is not null
  do nothing`;

/** Embedded store: the insert's statements, prepared once. */
export function prepareInsert(db: BetterSqlite3.Database) {
  return {
    // The rowid is the id's time and counter (taskIdKey), or null for SQLite to choose one.
    insertTask: db.prepare(INSERT_SQLITE),
    taskByKey: db.prepare('select id, created_at from tasks where account_id = ? and idempotency_key = ?'),
    deleteTask: prepareDeleteTask(db),
    // New tasks are counted here, once per account and engine per insert (sqlite/migrations/014-account-counts.ts).
    countInserted: db.prepare(`insert into status_counts (scope, task_type, status, n)
      values ('task:' || ?, ?, 'QUEUED', ?) on conflict (scope, task_type, status) do update set n = n + excluded.n`),
    insertBatch: db.prepare(`insert into batches (id, size, total, first_task_id, last_task_id, webhook_url, created_at,
      completed_at, account_id) values (@id, @size, @total, @first_task_id, @last_task_id, @webhook_url, @created_at,
      @completed_at, @account_id)`),
  };
}

type InsertStatements = ReturnType<typeof prepareInsert>;

/** Embedded store: the same insert on prepared statements, in the next group commit. */
export function insertTasksSqlite(
  group: GroupCommit,
  s: InsertStatements,
  agingMs: number,
  { tasks, notBefore = 0, batch }: InsertRequest,
): Promise<InsertOutcome[]> {
  if (tasks.length === 0 && !batch) return Promise.resolve([]);
  const rows = tasks.map((t) => taskRow(t, agingMs));
  return group.write(() => {
    const out = rows.map((row) => insertOne(s, row, notBefore));
    if (batch) s.insertBatch.run(batchRow(batch, out));
    // One count update per account and engine for the whole insert.
    const perType = new Map<string, { account: string; type: string; n: number }>();
    for (const o of out) {
      if (!o.ok) continue;
      const key = `${o.task.accountId}\n${o.task.taskType}`;
      const c = perType.get(key);
      if (c) c.n++;
      else perType.set(key, { account: o.task.accountId, type: o.task.taskType, n: 1 });
    }
    for (const c of perType.values()) s.countInserted.run(c.account, c.type, c.n);
    return out;
  });
}

function insertOne(s: InsertStatements, row: NewTaskRow, notBefore: number): InsertOutcome {
  // ON CONFLICT DO NOTHING: of two submits with one idempotency key, exactly one row wins.
  if (insertRow(s, row)) return { ok: true, task: taskFromRow(row) };
  const existing = s.taskByKey.get(row.account_id, row.idempotency_key) as
    | { id: string; created_at: number }
    | undefined;
  if (existing && existing.created_at < notBefore) {
    // The holder of the key has expired but is not swept yet: the key is free again.
    deleteTaskSqlite(s.deleteTask, existing.id);
    if (insertRow(s, row)) return { ok: true, task: taskFromRow(row) };
  }
  return { ok: false, reason: 'DUPLICATE_KEY', existingId: existing?.id ?? '' };
}

/**
 * Inserts under the id's own key as rowid; if another row holds that rowid, under one SQLite picks. False: the
 * idempotency key is taken.
 */
function insertRow(s: InsertStatements, row: NewTaskRow): boolean {
  try {
    return s.insertTask.run(taskIdKey(row.id), row).changes === 1;
  } catch (e) {
    if (!(e instanceof BetterSqlite3.SqliteError) || e.code !== 'SQLITE_CONSTRAINT_ROWID') throw e;
    return s.insertTask.run(null, row).changes === 1;
  }
}
