import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { enqueueDelivery, prepareEnqueueDelivery } from '../outbox/deliveries.js';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { PreparedArrayQuery, PreparedQuery } from '../postgres/prepared.js';
import { TurnBatch } from '../postgres/turn-batch.js';
import { slotOf } from '../pool-slots.js';
import type { RefillSource, TaskQueue, TerminalWrite } from '../ports.js';
import { type ClaimedPostgresValues, claimedPostgresTasks, postgresClaimCall } from './claim.js';
import { heldUnderLease, leaseFenceSql } from './lease-fence.js';

type Finish = Parameters<TaskQueue['finish']>[0];

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
 * neither. With a refill source (`refillWith`), the statement also claims the tasks that refill the finished ones'
 * slots (postgres/migrations/032-finish-and-claim.ts): the worker's next claim is then no round trip of its own.
 */
export function postgresFinisher(
  q: PreparedQuery,
  qa: PreparedArrayQuery,
  agingMs: number,
): Pick<TaskQueue, 'finish' | 'refillWith'> {
  let source: RefillSource | null = null;
  const batch = new TurnBatch<Finish, boolean>(
    (fs) => finishAllPostgres(q, qa, agingMs, fs, source),
    // After a failed statement each finish is written on its own, without a claim.
    async (f) => (await finishAllPostgres(q, qa, agingMs, [f], null))[0] ?? false,
    { loneThroughFlush: true },
  );
  return {
    finish: (f) => batch.add(f),
    refillWith: (s) => {
      source = s;
    },
  };
}

/**
 * The finish of many tasks in one statement: each row of the document is one task, fenced by its own lease token; the
 * tasks that were still held and have a webhook get their outbox row in the same statement. With the claim `source`
 * asks for, both in one call (aeq_finish_and_claim), the claim settled before the finishes are answered.
 */
async function finishAllPostgres(
  q: PreparedQuery,
  qa: PreparedArrayQuery,
  agingMs: number,
  fs: Finish[],
  source: RefillSource | null,
): Promise<boolean[]> {
  // One row per task; a task twice in one turn makes the batch fail, and each is then finished on its own.
  if (new Set(fs.map((f) => f.id)).size !== fs.length) throw new Error('a task finished twice in one turn');
  const rows = JSON.stringify(fs.map(finishRow));
  const refill = source?.(fs) ?? null;
  if (!refill) {
    const r = await q<{ id: string }>('aeq_finish', FINISH_ALL, [rows]);
    const done = new Set(r.rows.map((x) => x.id));
    return fs.map((f) => done.has(f.id));
  }
  const call = postgresClaimCall(refill.request);
  let r: { rows: FinishAndClaimValues[] };
  try {
    r = await qa<FinishAndClaimValues>('aeq_finish_and_claim', FINISH_AND_CLAIM, [rows, ...call.values]);
  } catch (e) {
    refill.settle({ error: e });
    throw e;
  }
  const done = new Set<string>();
  const claimed: ClaimedPostgresValues[] = [];
  for (const v of r.rows) {
    if (v[0] !== null) done.add(v[0]);
    else claimed.push(v.slice(1) as ClaimedPostgresValues);
  }
  refill.settle({ tasks: claimedPostgresTasks(claimed, call, agingMs) });
  return fs.map((f) => done.has(f.id));
}

/** A row of aeq_finish_and_claim: a finished task's id, or null and a claimed task's values. */
type FinishAndClaimValues = [finished: string | null, ...rest: unknown[]];

/** The finish and the refill claim (postgres/migrations/032-finish-and-claim.ts): $1 the finishes, then the claim's. */
const FINISH_AND_CLAIM =
  'select * from aeq_finish_and_claim($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10::text[], $11::integer[], $12, $13)';

/** A finish as a row of the statement's JSON document (FINISH_ALL's columns). */
function finishRow({ id, leaseToken, write: w, now, releaseSlot }: Finish) {
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
