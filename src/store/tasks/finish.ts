import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { enqueueDelivery, prepareEnqueueDelivery } from '../outbox/deliveries.js';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { PreparedQuery } from '../postgres/prepared.js';
import { TurnBatch } from '../postgres/turn-batch.js';
import { slotOf } from '../pool-slots.js';
import type { TaskQueue, TerminalWrite } from '../ports.js';

type Finish = Parameters<TaskQueue['finish']>[0];
import { heldUnderLease, leaseFenceSql } from './lease-fence.js';

/**
 * Makes a held task terminal behind the lease fence and, in the same transaction, queues its
 * webhook (the outbox). False if the lease was lost: nothing is written. The reaper and the release of
 * dead workers use it, with the stale token they read; a worker's finish has each store's own form below.
 */
export async function writeTerminal(
  trx: Kysely<Database>,
  id: string,
  leaseToken: string | null,
  w: TerminalWrite,
  now: number,
): Promise<boolean> {
  const r = await trx
    .updateTable('tasks')
    .set({
      status: w.status,
      result: w.result === undefined ? null : JSON.stringify(w.result),
      error: w.error,
      failure: failureText(w),
      artifacts: artifactsText(w),
      credits_to_charge: w.creditsToCharge,
      credits_charged: w.creditsCharged,
      lease_token: null,
      lease_expires_at: null,
      finished_at: now,
      updated_at: now,
    })
    .where((eb) => heldUnderLease(eb, id, leaseToken))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  if (w.webhook) await enqueueDelivery(trx, id, w.webhook, now);
  return true;
}

/** Embedded store: the terminal write of one held task (its outbox row is prepareEnqueueDelivery's). */
const FINISH_SQLITE = `
  update tasks
  set status = @status,
    result = @result,
    error = @error,
    failure = @failure,
    artifacts = @artifacts,
    credits_to_charge = @toCharge,
    credits_charged = @charged,
    lease_token = null,
    lease_expires_at = null,
    finished_at = @now,
    updated_at = @now
  where ${leaseFenceSql('@id', '@token')}`;

/** Embedded store: the finish's statements, prepared once. */
export function prepareFinish(db: BetterSqlite3.Database) {
  return { finishTask: db.prepare(FINISH_SQLITE), insertDelivery: prepareEnqueueDelivery(db) };
}

/**
 * Embedded store: the same finish on prepared statements, in the next group commit (one transaction with the outbox
 * row).
 */
export function finishTaskSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareFinish>,
  { id, leaseToken, write: w, now }: Finish,
): Promise<boolean> {
  const result = w.result === undefined ? null : JSON.stringify(w.result);
  const payload = w.webhook ? JSON.stringify(w.webhook.payload) : null;
  return group.write(() => {
    const changed = s.finishTask.run({
      status: w.status,
      result,
      error: w.error,
      failure: failureText(w),
      artifacts: artifactsText(w),
      toCharge: w.creditsToCharge,
      charged: w.creditsCharged,
      now,
      id,
      token: leaseToken,
    }).changes;
    if (changed !== 1) return false;
    if (w.webhook && payload !== null)
      s.insertDelivery.run(id, w.webhook.url, payload, now, now, now, w.webhook.accountId);
    return true;
  });
}

/**
 * PostgreSQL: finishes with one statement per turn of the event loop, the group commit of the embedded store. The
 * terminal writes asked for during one turn go to the server as one statement (postgres/turn-batch.ts), their
 * webhooks' outbox rows with them: the statement is atomic, so a task is terminal with its delivery queued, or
 * neither.
 */
export function postgresFinisher(q: PreparedQuery): TaskQueue['finish'] {
  const batch = new TurnBatch<Finish, boolean>(
    (fs) => finishAllPostgres(q, fs),
    async (f) => (await finishAllPostgres(q, [f]))[0] ?? false,
  );
  return (f) => batch.add(f);
}

/**
 * The finish of many tasks in one statement: each row of the document is one task, fenced by its own lease token; the
 * tasks that were still held and have a webhook get their outbox row in the same statement.
 */
async function finishAllPostgres(q: PreparedQuery, fs: Finish[]): Promise<boolean[]> {
  // One row per task; a task twice in one turn makes the batch fail, and each is then finished on its own.
  if (new Set(fs.map((f) => f.id)).size !== fs.length) throw new Error('a task finished twice in one turn');
  // The rows as one JSON document: PostgreSQL parses it in C, where text arrays are escaped character by character in
  // JavaScript by the driver (a result is kilobytes of JSON).
  const rows = fs.map(({ id, leaseToken, write: w, now, releaseSlot }) => {
    const slot = releaseSlot === undefined ? null : slotOf(releaseSlot);
    return {
      id,
      token: leaseToken,
      status: w.status,
      result: w.result === undefined ? null : JSON.stringify(w.result),
      error: w.error,
      failure: failureText(w),
      artifacts: artifactsText(w),
      to_charge: w.creditsToCharge,
      charged: w.creditsCharged,
      now,
      hook_url: w.webhook?.url ?? null,
      hook_payload: w.webhook ? JSON.stringify(w.webhook.payload) : null,
      hook_account: w.webhook?.accountId ?? null,
      slot_resource: slot?.resourceId ?? null,
      slot_no: slot?.slot ?? null,
      slot_token: slot?.id ?? null,
    };
  });
  const r = await q<{ id: string }>('aeq_finish', FINISH_ALL, [JSON.stringify(rows)]);
  const done = new Set(r.rows.map((x) => x.id));
  return fs.map((f) => done.has(f.id));
}

/**
 * The finish of a turn's tasks (finishAllPostgres): $1 is the JSON array of their rows. The pool slots the claim leased
 * for their attempts are freed here too (`freed`, by each slot's key and only while it holds that lease), whether or
 * not the fence let the task's own write through: the attempt is over either way.
 */
const FINISH_ALL = `
  with v as (
    select *
    from json_to_recordset($1::json) as v (id text, token text, status text, result text, error text, failure text, artifacts text, to_charge integer, charged integer, now bigint, hook_url text, hook_payload text, hook_account text, slot_resource text, slot_no integer, slot_token text)
  ),
  freed as (
    update pool_slots as p
    set token = null, expires_at = null, holder = null
    from v
    where v.slot_resource is not null and p.resource_id = v.slot_resource and p.slot = v.slot_no
      and p.token = v.slot_token
  ),
  done as (
    update tasks as t
    set status = v.status,
      result = v.result,
      error = v.error,
      failure = v.failure,
      artifacts = v.artifacts,
      credits_to_charge = v.to_charge,
      credits_charged = v.charged,
      lease_token = null,
      lease_expires_at = null,
      finished_at = v.now,
      updated_at = v.now
    from v
    where ${leaseFenceSql('v.id', 'v.token', 't')}
    returning t.id
  ),
  hooks as (
    insert into webhook_deliveries (task_id, url, payload, status, attempts, next_attempt_at, lease_token, lease_expires_at, last_error, created_at, updated_at, account_id)
    select v.id, v.hook_url, v.hook_payload, 'PENDING', 0, v.now, null, null, null, v.now, v.now, v.hook_account
    from v
    join done on done.id = v.id
    where v.hook_url is not null
  )
  select id
  from done`;

/** The failure as the column holds it (JSON text), on a FAILED task only. */
function failureText(w: TerminalWrite): string | null {
  return w.status === 'FAILED' && w.failure ? JSON.stringify(w.failure) : null;
}

/** The artefacts' list as the column holds it (JSON text); null when the task keeps none. */
function artifactsText(w: TerminalWrite): string | null {
  return w.artifacts && w.artifacts.length > 0 ? JSON.stringify(w.artifacts) : null;
}
