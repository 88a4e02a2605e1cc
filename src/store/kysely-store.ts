import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { NewTask, PolledTask, TaskRecord } from '../domain/task.js';
import type { Database, TasksTable } from './schema.js';
import { POLL_COLUMNS, claimedFromRow, polledFromRow, taskFromRow } from './rows.js';
import { serialised, type StoreDialect } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import * as deliveries from './outbox/deliveries.js';
import * as poolLeases from './pool-leases.js';
import * as runtimeState from './runtime-state.js';
import * as counts from './stats.js';
import type { DeliveryOutcome, DueDelivery, InsertOutcome, ReapResult, Stats, Store, TerminalWrite } from './store.js';

/** Every tasks column, `id` qualified: claims join a CTE that also has an `id` (SQLite cannot RETURN `tasks.*`). */
const TASK_COLUMNS = [
  'tasks.id', 'task_type', 'status', 'priority', 'sort_key', 'payload', 'idempotency_key', 'webhook_url', 'country',
  'created_at', 'updated_at', 'available_at', 'attempts', 'max_attempts', 'lease_token', 'lease_expires_at', 'worker_id',
  'result', 'error', 'credits_to_charge', 'credits_charged', 'finished_at',
] as const;

/** Task states written into the SQL text rather than bound, so that the partial indexes on status can serve the query. */
const QUEUED = sql.lit('QUEUED');
/** Rows per multi-row insert: 22 columns each, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;
const PROCESSING = sql.lit('PROCESSING');

export class KyselyStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  private migrated = false;

  constructor(
    readonly db: Kysely<Database>,
    protected readonly dialect: StoreDialect,
    protected readonly agingMs: number,
  ) {
    this.kind = dialect.kind;
  }

  async migrate(): Promise<void> {
    await migrateToLatest(this.db, this.dialect);
    this.migrated = true;
  }

  async isReady(): Promise<boolean> {
    if (!this.migrated) return false;
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.db.destroy();
  }

  protected toRow(t: NewTask): TasksTable {
    return {
      id: t.id,
      task_type: t.taskType,
      status: 'QUEUED',
      priority: t.priority,
      sort_key: t.createdAt - t.priority * this.agingMs,
      payload: JSON.stringify(t.payload),
      idempotency_key: t.idempotencyKey,
      webhook_url: t.webhookUrl,
      country: t.country,
      created_at: t.createdAt,
      updated_at: t.createdAt,
      available_at: t.createdAt,
      attempts: 0,
      max_attempts: t.maxAttempts,
      lease_token: null,
      lease_expires_at: null,
      worker_id: null,
      result: null,
      error: null,
      credits_to_charge: t.creditsToCharge,
      credits_charged: null,
      finished_at: null,
    };
  }

  async insertTasks(tasks: NewTask[], notBefore = 0): Promise<InsertOutcome[]> {
    if (tasks.length === 0) return [];
    const rows = tasks.map((t) => this.toRow(t));
    return this.db.transaction().execute(async (trx) => {
      // One multi-row statement per chunk (a round trip per chunk, not per task). ON CONFLICT DO
      // NOTHING makes two submits with one key race-safe: exactly one row wins; the rows it skipped
      // (a key already taken, or taken earlier in this batch) are settled one by one, in order.
      const inserted = new Set<string>();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        const r = await trx.insertInto('tasks').values(chunk).onConflict((oc) => oc.column('idempotency_key').doNothing()).returning('id').execute();
        for (const { id } of r) inserted.add(id);
      }
      const out: InsertOutcome[] = [];
      for (const row of rows) out.push(inserted.has(row.id) ? { ok: true, task: taskFromRow(row) } : await this.insertSkipped(trx, row, notBefore));
      return out;
    });
  }

  /** A row whose idempotency key was taken: refused, unless the holder has expired (then the key is free again). */
  private async insertSkipped(trx: Kysely<Database>, row: TasksTable, notBefore: number): Promise<InsertOutcome> {
    const existing = await trx.selectFrom('tasks').select(['id', 'created_at']).where('idempotency_key', '=', row.idempotency_key).executeTakeFirst();
    if (existing && Number(existing.created_at) < notBefore) {
      // Expired but not swept yet.
      await this.deleteTasks(trx, [existing.id]);
      const again = await trx.insertInto('tasks').values(row).onConflict((oc) => oc.column('idempotency_key').doNothing()).returning('id').executeTakeFirst();
      if (again) return { ok: true, task: taskFromRow(row) };
    }
    return { ok: false, reason: 'DUPLICATE_KEY', existingId: existing?.id ?? '' };
  }

  private async deleteTasks(trx: Kysely<Database>, ids: string[]): Promise<number> {
    await trx.deleteFrom('webhook_attempts').where('task_id', 'in', ids).execute();
    await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', ids).execute();
    const r = await trx.deleteFrom('tasks').where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async getTask(id: string, notBefore: number): Promise<TaskRecord | undefined> {
    const row = await this.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', id)
      .where('created_at', '>=', notBefore)
      .executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  async pollTask(id: string, notBefore: number): Promise<PolledTask | undefined> {
    const row = await this.db.selectFrom('tasks').select(POLL_COLUMNS).where('id', '=', id).where('created_at', '>=', notBefore).executeTakeFirst();
    return row ? polledFromRow(row) : undefined;
  }

  async claimTasks(a: {
    taskType: string;
    limit: number;
    concurrency: number;
    workerId: string;
    now: number;
    leaseMs: number;
  }) {
    return serialised(this.db, this.dialect, a.taskType, async (trx) => {
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
      if (this.dialect.supportsSkipLocked) candidates = candidates.forUpdate().skipLocked();
      const token = randomUUID();
      // A materialized CTE, not `id IN (subquery)`: PostgreSQL may run an IN-subquery with LIMIT
      // and SKIP LOCKED more than once and then claim more rows than the limit (seen in tests).
      const rows = await trx
        .with((cte) => cte('picked').materialized(), () => candidates)
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
      return rows.map(claimedFromRow).sort((x, y) => x.createdAt - x.priority * this.agingMs - (y.createdAt - y.priority * this.agingMs));
    });
  }

  async heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number> {
    if (leases.length === 0) return 0;
    let n = 0;
    await this.db.transaction().execute(async (trx) => {
      for (const l of leases) {
        const r = await trx
          .updateTable('tasks')
          .set({ lease_expires_at: leaseExpiresAt })
          .where('id', '=', l.id)
          .where('lease_token', '=', l.leaseToken)
          .where('status', '=', PROCESSING)
          .executeTakeFirst();
        n += Number(r.numUpdatedRows);
      }
    });
    return n;
  }

  private async writeTerminal(trx: Kysely<Database>, id: string, leaseToken: string | null, w: TerminalWrite, now: number): Promise<boolean> {
    let q = trx
      .updateTable('tasks')
      .set({
        status: w.status,
        result: w.result === undefined ? null : JSON.stringify(w.result),
        error: w.error,
        credits_to_charge: w.creditsToCharge,
        credits_charged: w.creditsCharged,
        lease_token: null,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', PROCESSING);
    q = leaseToken === null ? q.where('lease_token', 'is', null) : q.where('lease_token', '=', leaseToken);
    const r = await q.executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    if (w.webhook) await deliveries.enqueueDelivery(trx, id, w.webhook, now);
    return true;
  }

  async finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean> {
    // Without a webhook the terminal write is one statement, atomic on its own: no transaction
    // (on PostgreSQL, one round trip instead of three).
    if (!write.webhook) return this.writeTerminal(this.db, id, leaseToken, write, now);
    return this.db.transaction().execute((trx) => this.writeTerminal(trx, id, leaseToken, write, now));
  }

  async retryTask(id: string, leaseToken: string, lastError: string, availableAt: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('tasks')
      .set({
        status: 'QUEUED',
        error: lastError,
        available_at: availableAt,
        lease_token: null,
        lease_expires_at: null,
        worker_id: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', PROCESSING)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async reapExpiredLeases(now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<ReapResult> {
    return this.db.transaction().execute(async (trx) => {
      const expired = await trx
        .selectFrom('tasks')
        .selectAll()
        .where('status', '=', PROCESSING)
        .where('lease_expires_at', '<', now)
        .limit(500)
        .execute();
      const result: ReapResult = { requeued: [], failed: [] };
      for (const row of expired) {
        const task = taskFromRow(row);
        if (task.attempts >= task.maxAttempts) {
          // Fence on the stale token so a worker that comes back cannot also finish it.
          const ok = await this.writeTerminal(trx, task.id, row.lease_token, failedWrite(task), now);
          if (ok) result.failed.push(task.id);
          continue;
        }
        let q = trx
          .updateTable('tasks')
          .set({ status: 'QUEUED', lease_token: null, lease_expires_at: null, worker_id: null, available_at: now, updated_at: now })
          .where('id', '=', task.id)
          .where('status', '=', PROCESSING);
        q = row.lease_token === null ? q.where('lease_token', 'is', null) : q.where('lease_token', '=', row.lease_token);
        const r = await q.executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1) result.requeued.push(task.id);
      }
      return result;
    });
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const ids = (
        await trx.selectFrom('tasks').select('id').where('created_at', '<', before).limit(limit).execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      return this.deleteTasks(trx, ids);
    });
  }

  async nextAvailableAt(taskType: string): Promise<number | null> {
    const r = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.min('available_at').as('t'))
      .where('task_type', '=', taskType)
      .where('status', '=', QUEUED)
      .executeTakeFirst();
    return r?.t === null || r?.t === undefined ? null : Number(r.t);
  }

  stats(notBefore: number): Promise<Stats> {
    return counts.stats(this.db, notBefore);
  }
  queuedAndRunning(notBefore: number): Promise<Record<string, { queued: number; processing: number }>> {
    return counts.queuedAndRunning(this.db, notBefore);
  }

  claimDueDeliveries(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return deliveries.claimDueDeliveries(this.db, this.dialect, now, limit, leaseMs);
  }
  startDeliveryAttempt(taskId: string, leaseToken: string, attempt: number, now: number): Promise<boolean> {
    return deliveries.startDeliveryAttempt(this.db, taskId, leaseToken, attempt, now);
  }
  finishDeliveryAttempt(taskId: string, leaseToken: string, attempt: number, outcome: DeliveryOutcome, now: number): Promise<void> {
    return deliveries.finishDeliveryAttempt(this.db, taskId, leaseToken, attempt, outcome, now);
  }
  nextDeliveryAt(): Promise<number | null> {
    return deliveries.nextDeliveryAt(this.db);
  }

  acquirePoolLease(resourceId: string, capacity: number, now: number, expiresAt: number): Promise<string | null> {
    return poolLeases.acquirePoolLease(this.db, this.dialect, resourceId, capacity, now, expiresAt);
  }
  releasePoolLease(token: string): Promise<void> {
    return poolLeases.releasePoolLease(this.db, token);
  }

  putRuntimeChange(key: string, state: string, now: number): Promise<void> {
    return runtimeState.putRuntimeChange(this.db, key, state, now);
  }
  runtimeChanges(): Promise<Array<{ key: string; state: string; updatedAt: number }>> {
    return runtimeState.runtimeChanges(this.db);
  }
  getMeta(key: string): Promise<string | undefined> {
    return runtimeState.getMeta(this.db, key);
  }
  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return runtimeState.setMetaIfAbsent(this.db, key, value);
  }
}
