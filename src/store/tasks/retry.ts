import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { TaskQueue } from '../ports.js';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { heldUnderLease, leaseFenceSql } from './lease-fence.js';

type Retry = Parameters<TaskQueue['retry']>[0];

/** Puts a held task back in the queue until `availableAt`, keeping the attempt's error. False if the lease was lost. */
export async function retryTask(
  db: Kysely<Database>,
  { id, leaseToken, error, availableAt, now, failure = null }: Retry,
): Promise<boolean> {
  const r = await db
    .updateTable('tasks')
    .set({
      status: 'QUEUED',
      error,
      failure: failure ? JSON.stringify(failure) : null,
      available_at: availableAt,
      lease_token: null,
      lease_expires_at: null,
      worker_id: null,
      updated_at: now,
    })
    .where((eb) => heldUnderLease(eb, id, leaseToken))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Embedded store: the retry, run with (error, failure, available at, now, id, token). */
const RETRY_SQLITE = `
  update tasks
  set status = 'QUEUED',
    error = ?,
    failure = ?,
    available_at = ?,
    lease_token = null,
    lease_expires_at = null,
    worker_id = null,
    updated_at = ?
  where ${leaseFenceSql('?', '?')}`;

/** Embedded store: the retry's statement, prepared once. */
export function prepareRetry(db: BetterSqlite3.Database) {
  return db.prepare(RETRY_SQLITE);
}

export function retryTaskSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareRetry>,
  { id, leaseToken, error, availableAt, now, failure = null }: Retry,
): Promise<boolean> {
  const failureText = failure ? JSON.stringify(failure) : null;
  return group.write(() => s.run(error, failureText, availableAt, now, id, leaseToken).changes === 1);
}
