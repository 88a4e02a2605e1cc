import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { enqueueDelivery, prepareEnqueueDelivery } from '../outbox/deliveries.js';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { TurnBatch } from '../postgres/turn-batch.js';
import type { TerminalWrite } from '../store.js';
import { heldUnderLease, leaseFenceSql } from './lease-fence.js';

/**
 * Makes a held task terminal behind the lease fence and, in the same transaction, queues its
 * webhook (the outbox). False if the lease was lost: nothing is written. The reaper uses it too,
 * with the stale token it read.
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

export function finishTask(
  db: Kysely<Database>,
  id: string,
  leaseToken: string,
  w: TerminalWrite,
  now: number,
): Promise<boolean> {
  // Without a webhook the terminal write is one statement, atomic on its own: no transaction
  // (on PostgreSQL, one round trip instead of three).
  if (!w.webhook) return writeTerminal(db, id, leaseToken, w, now);
  return db.transaction().execute((trx) => writeTerminal(trx, id, leaseToken, w, now));
}

/** Embedded store: the finish's statements, prepared once. */
export function prepareFinish(db: BetterSqlite3.Database) {
  return {
    finishTask:
      db.prepare(`update tasks set status = @status, result = @result, error = @error, credits_to_charge = @toCharge,
        credits_charged = @charged, lease_token = null, lease_expires_at = null, finished_at = @now, updated_at = @now
      where ${leaseFenceSql('@id', '@token')}`),
    insertDelivery: prepareEnqueueDelivery(db),
  };
}

/**
 * Embedded store: the same finish on prepared statements, in the next group commit (one transaction with the outbox
 * row).
 */
export function finishTaskSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareFinish>,
  id: string,
  leaseToken: string,
  w: TerminalWrite,
  now: number,
): Promise<boolean> {
  const result = w.result === undefined ? null : JSON.stringify(w.result);
  const payload = w.webhook ? JSON.stringify(w.webhook.payload) : null;
  return group.write(() => {
    const changed = s.finishTask.run({
      status: w.status,
      result,
      error: w.error,
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

interface Finish {
  id: string;
  leaseToken: string;
  write: TerminalWrite;
  now: number;
}

/**
 * PostgreSQL: finishes with one statement per turn of the event loop. The terminal writes without a
 * webhook asked for during one turn go to the server as one UPDATE (postgres/turn-batch.ts); those
 * with a webhook keep their transaction (the shared form).
 */
export function postgresFinisher(
  db: Kysely<Database>,
): (id: string, leaseToken: string, w: TerminalWrite, now: number) => Promise<boolean> {
  const batch = new TurnBatch<Finish, boolean>(
    (fs) => finishAllPostgres(db, fs),
    (f) => finishTask(db, f.id, f.leaseToken, f.write, f.now),
  );
  return (id, leaseToken, write, now) =>
    write.webhook ? finishTask(db, id, leaseToken, write, now) : batch.add({ id, leaseToken, write, now });
}

/** The shared finish for many tasks without a webhook, in one statement: each is fenced by its own lease token. */
async function finishAllPostgres(db: Kysely<Database>, fs: Finish[]): Promise<boolean[]> {
  // One row per task in VALUES; a task twice in one turn is left to the one-by-one path.
  if (new Set(fs.map((f) => f.id)).size !== fs.length) throw new Error('a task finished twice in one turn');
  const rows = fs.map(
    ({ id, leaseToken, write: w, now }) =>
      sql`(${id}::text, ${leaseToken}::text, ${w.status}::text,
        ${w.result === undefined ? null : JSON.stringify(w.result)}::text, ${w.error}::text,
        ${w.creditsToCharge}::integer, ${w.creditsCharged}::integer, ${now}::bigint)`,
  );
  const r = await sql<{ id: string }>`
    update tasks as t set status = v.status, result = v.result, error = v.error, credits_to_charge = v.to_charge,
      credits_charged = v.charged, lease_token = null, lease_expires_at = null, finished_at = v.now, updated_at = v.now
    from (values ${sql.join(rows)}) as v (id, token, status, result, error, to_charge, charged, now)
    where ${sql.raw(leaseFenceSql('v.id', 'v.token', 't'))}
    returning t.id`.execute(db);
  const done = new Set(r.rows.map((x) => x.id));
  return fs.map((f) => done.has(f.id));
}
