import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { DeliveryLogRow, Outbox, RedeliveryOutcome, WebhookOutbox } from '../ports.js';

type StartAttempt = Parameters<Outbox['startAttempt']>[0];
type FinishAttempt = Parameters<Outbox['finishAttempt']>[0];

/**
 * The webhook outbox. A delivery row is written in the transaction that makes its task terminal
 * (tasks/finish.ts), so a crash cannot lose a webhook; the sender claims due rows under a lease of
 * their own, records attempt n before sending (primary key (task_id, attempt): no attempt number
 * twice), then settles the row. Writes by a sender are fenced by the delivery's lease token. The claim is in
 * outbox/claim.ts.
 */

/** Queues a task's webhook, due at once. */
export async function enqueueDelivery(
  trx: Kysely<Database>,
  taskId: string,
  webhook: WebhookOutbox,
  now: number,
): Promise<void> {
  await trx
    .insertInto('webhook_deliveries')
    .values({
      task_id: taskId,
      url: webhook.url,
      payload: JSON.stringify(webhook.payload),
      status: 'PENDING',
      attempts: 0,
      next_attempt_at: now,
      lease_token: null,
      lease_expires_at: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      account_id: webhook.accountId,
    })
    .execute();
}

/**
 * Embedded store: `enqueueDelivery` as a prepared statement; run it with (task id, url, payload JSON, now, now,
 * now, account id).
 */
export function prepareEnqueueDelivery(db: BetterSqlite3.Database) {
  return db.prepare(ENQUEUE_SQLITE);
}

const ENQUEUE_SQLITE = `
  insert into webhook_deliveries (task_id, url, payload, status, attempts, next_attempt_at, lease_token, lease_expires_at, last_error, created_at, updated_at, account_id)
  values (?, ?, ?, 'PENDING', 0, ?, null, null, null, ?, ?, ?)`;

/** Records that attempt `attempt` starts; false if it was already made (another sender got there first). */
export function startDeliveryAttempt(
  db: Kysely<Database>,
  { taskId, leaseToken, attempt, now, delivery = 0 }: StartAttempt,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('webhook_deliveries')
      .set({ attempts: attempt, updated_at: now })
      .where('task_id', '=', taskId)
      .where('lease_token', '=', leaseToken)
      .where('attempts', '=', attempt - 1)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('webhook_attempts')
      .values({
        task_id: taskId,
        attempt,
        started_at: now,
        finished_at: null,
        outcome: null,
        http_status: null,
        error: null,
        next_attempt_at: null,
        delivery,
      })
      .execute();
    return true;
  });
}

/** Records how an attempt ended and settles the delivery: delivered, due again at `o.at`, or abandoned. */
export async function finishDeliveryAttempt(
  db: Kysely<Database>,
  { taskId, leaseToken, attempt, outcome: o, now }: FinishAttempt,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_attempts')
      .set({
        finished_at: now,
        outcome: o.kind,
        http_status: o.httpStatus,
        error: o.kind === 'delivered' ? null : o.error,
        next_attempt_at: o.kind === 'retry' ? o.at : null,
      })
      .where('task_id', '=', taskId)
      .where('attempt', '=', attempt)
      .execute();
    const common = { lease_token: null, lease_expires_at: null, updated_at: now };
    const set =
      o.kind === 'delivered'
        ? { ...common, status: 'DELIVERED', last_error: null }
        : o.kind === 'retry'
          ? { ...common, status: 'PENDING', next_attempt_at: o.at, last_error: o.error }
          : { ...common, status: 'ABANDONED', last_error: o.error };
    await trx
      .updateTable('webhook_deliveries')
      .set(set)
      .where('task_id', '=', taskId)
      .where('lease_token', '=', leaseToken)
      .execute();
  });
}

/** Earliest time a PENDING delivery becomes due, for the sender's timer. */
export async function nextDeliveryAt(db: Kysely<Database>): Promise<number | null> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('t'))
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return r?.t === null || r?.t === undefined ? null : Number(r.t);
}

/** Embedded store: the sender's statements, prepared once. */
export function prepareDeliveries(db: BetterSqlite3.Database) {
  const p = (text: string) => db.prepare(text);
  return {
    // Attempt n starts once: only from attempts n - 1, under the sender's lease.
    startDelivery: p(`
      update webhook_deliveries
      set attempts = ?,
        updated_at = ?
      where task_id = ?
        and lease_token = ?
        and attempts = ?`),
    insertAttempt: p(`
      insert into webhook_attempts (task_id, attempt, started_at, finished_at, outcome, http_status, delivery)
      values (?, ?, ?, null, null, null, ?)`),
    finishAttempt: p(`
      update webhook_attempts
      set finished_at = ?,
        outcome = ?,
        http_status = ?,
        error = ?,
        next_attempt_at = ?
      where task_id = ?
        and attempt = ?`),
    // A retry moves next_attempt_at (@next); the other outcomes leave it as it was.
    finishDelivery: p(`
      update webhook_deliveries
      set status = @status,
        next_attempt_at = coalesce(@next, next_attempt_at),
        last_error = @error,
        lease_token = null,
        lease_expires_at = null,
        updated_at = @now
      where task_id = @id
        and lease_token = @token`),
  };
}

type DeliveryStatements = ReturnType<typeof prepareDeliveries>;

export function startDeliveryAttemptSqlite(
  group: GroupCommit,
  s: DeliveryStatements,
  { taskId, leaseToken, attempt, now, delivery = 0 }: StartAttempt,
): Promise<boolean> {
  return group.write(() => {
    if (s.startDelivery.run(attempt, now, taskId, leaseToken, attempt - 1).changes !== 1) return false;
    s.insertAttempt.run(taskId, attempt, now, delivery);
    return true;
  });
}

export function finishDeliveryAttemptSqlite(
  group: GroupCommit,
  s: DeliveryStatements,
  { taskId, leaseToken, attempt, outcome: o, now }: FinishAttempt,
): Promise<void> {
  return group.write(() => {
    const error = o.kind === 'delivered' ? null : o.error;
    s.finishAttempt.run(now, o.kind, o.httpStatus, error, o.kind === 'retry' ? o.at : null, taskId, attempt);
    const status = o.kind === 'delivered' ? 'DELIVERED' : o.kind === 'retry' ? 'PENDING' : 'ABANDONED';
    // A retry moves next_attempt_at; the other outcomes leave it as it was.
    s.finishDelivery.run({ status, next: o.kind === 'retry' ? o.at : null, error, now, id: taskId, token: leaseToken });
  });
}

/** A task's webhook delivery and its attempts in order; null when the task has no delivery (no webhook). */
export async function deliveryLog(db: Kysely<Database>, taskId: string): Promise<DeliveryLogRow | null> {
  const d = await db
    .selectFrom('webhook_deliveries')
    .select(['url', 'status', 'next_attempt_at', 'redeliveries'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  if (!d) return null;
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('attempt')
    .execute();
  const num = (x: number | string | null) => (x === null ? null : Number(x));
  return {
    url: d.url,
    status: d.status,
    nextAttemptAt: Number(d.next_attempt_at),
    redeliveries: Number(d.redeliveries),
    attempts: rows.map((r) => ({
      delivery: Number(r.delivery),
      attempt: Number(r.attempt),
      startedAt: Number(r.started_at),
      finishedAt: num(r.finished_at),
      outcome: r.outcome,
      httpStatus: num(r.http_status),
      error: r.error,
      nextAttemptAt: num(r.next_attempt_at),
    })),
  };
}

/**
 * Queues a fresh delivery of a settled one: due at once (outside the retry schedule), the next delivery number (so
 * a new webhook-id), and five attempts of its own from here. A delivery still pending or sending is left alone.
 */
export async function requestRedelivery(
  db: Kysely<Database>,
  { taskId, now }: { taskId: string; now: number },
): Promise<RedeliveryOutcome> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'PENDING',
      next_attempt_at: now,
      last_error: null,
      updated_at: now,
      redeliveries: eb('redeliveries', '+', 1),
      attempts_base: eb.ref('attempts'),
    }))
    .where('task_id', '=', taskId)
    .where('status', 'in', ['DELIVERED', 'ABANDONED'])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return 'queued';
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('status')
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  return row ? 'busy' : 'none';
}
