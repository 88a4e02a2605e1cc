import type BetterSqlite3 from 'better-sqlite3';
import { prepareDeliveries, prepareEnqueueDelivery } from '../outbox/deliveries.js';
import { POLL_COLUMNS } from '../rows.js';
import { prepareStats } from '../stats.js';

/**
 * The hot-path statements of the embedded store, prepared once. They say in SQL what the shared
 * Kysely code says with the query builder (src/store/kysely-store.ts); the store tests run both
 * dialects through the same cases, so the two cannot drift apart unseen.
 */
export function prepareStatements(db: BetterSqlite3.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    // The rowid is the id's time and counter (taskIdKey), or null for SQLite to choose one.
    insertTask: p(`insert into tasks (rowid, id, task_type, status, priority, sort_key, payload, idempotency_key, webhook_url, country,
        created_at, updated_at, available_at, attempts, max_attempts, lease_token, lease_expires_at, worker_id, result, error,
        credits_to_charge, credits_charged, finished_at)
      values (?, @id, @task_type, @status, @priority, @sort_key, @payload, @idempotency_key, @webhook_url, @country,
        @created_at, @updated_at, @available_at, @attempts, @max_attempts, @lease_token, @lease_expires_at, @worker_id, @result, @error,
        @credits_to_charge, @credits_charged, @finished_at)
      on conflict (idempotency_key) do nothing`),
    taskByKey: p('select id, created_at from tasks where idempotency_key = ?'),
    deleteAttempts: p('delete from webhook_attempts where task_id = ?'),
    deleteDelivery: p('delete from webhook_deliveries where task_id = ?'),
    deleteTask: p('delete from tasks where id = ?'),
    // By rowid first: one B-tree instead of the id index and then the table (docs/benchmarks.md).
    // The id is checked too, as a row can have another rowid (a repeated key, a rowid renumbered by VACUUM).
    getTaskByKey: p('select * from tasks where rowid = ? and id = ? and created_at >= ?'),
    getTask: p('select * from tasks where id = ? and created_at >= ?'),
    // Rows as arrays: building a 22-key object per row was a third of the poll's read (docs/benchmarks.md).
    pollTaskByKey: p(`select ${POLL_COLUMNS.join(', ')} from tasks where rowid = ? and id = ? and created_at >= ?`).raw(true),
    pollTask: p(`select ${POLL_COLUMNS.join(', ')} from tasks where id = ? and created_at >= ?`).raw(true),

    countProcessing: p(`select count(*) as n from tasks where task_type = ? and status = 'PROCESSING'`),
    // SQLite runs the IN-subquery once, so LIMIT bounds the claim (PostgreSQL needs the CTE form).
    claim: p(`update tasks set status = 'PROCESSING', lease_token = @token, lease_expires_at = @expires, worker_id = @worker,
        attempts = attempts + 1, updated_at = @now
      where id in (select id from tasks where task_type = @type and status = 'QUEUED' and available_at <= @now order by sort_key limit @room)
        and status = 'QUEUED'
      returning *`),
    heartbeat: p(`update tasks set lease_expires_at = ? where id = ? and lease_token = ? and status = 'PROCESSING'`),
    finishTask: p(`update tasks set status = @status, result = @result, error = @error, credits_to_charge = @toCharge,
        credits_charged = @charged, lease_token = null, lease_expires_at = null, finished_at = @now, updated_at = @now
      where id = @id and status = 'PROCESSING' and lease_token = @token`),
    retryTask: p(`update tasks set status = 'QUEUED', error = ?, available_at = ?, lease_token = null, lease_expires_at = null,
        worker_id = null, updated_at = ?
      where id = ? and status = 'PROCESSING' and lease_token = ?`),

    insertDelivery: prepareEnqueueDelivery(db),
    deliveries: prepareDeliveries(db),

    countInserted: p(`insert into status_counts (scope, task_type, status, n) values ('task', ?, 'QUEUED', ?)
      on conflict (scope, task_type, status) do update set n = n + excluded.n`),
    stats: prepareStats(db),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
