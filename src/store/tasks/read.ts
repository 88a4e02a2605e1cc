import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { parseArtifacts, type StoredArtifact } from '../../domain/artifact.js';
import type { PolledTask, TaskRecord } from '../../domain/task.js';
import { taskIdKey } from '../../domain/task-id.js';
import { POLL_COLUMNS, polledFromRow, polledFromValues, taskFromRow, type PollValues } from '../rows.js';
import type { Database, TasksTable } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { QUEUED } from './status-literals.js';

/** A task by id, unless it was created before `notBefore` (expired: hidden until the sweep deletes it). */
type TaskRef = { id: string; notBefore: number };

export async function getTask(db: Kysely<Database>, { id, notBefore }: TaskRef): Promise<TaskRecord | undefined> {
  const row = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', id)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row ? taskFromRow(row) : undefined;
}

/** The poll's read: `getTask` without the payload and the bookkeeping columns. */
export async function pollTask(db: Kysely<Database>, { id, notBefore }: TaskRef): Promise<PolledTask | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select(POLL_COLUMNS)
    .where('id', '=', id)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row ? polledFromRow(row) : undefined;
}

/**
 * The artefacts a task of the account kept (src/domain/artifact.ts), unless it expired; undefined when there is no
 * such task, [] when it kept none. Read apart from the task, so that no other read carries the list.
 */
export async function taskArtifacts(
  db: Kysely<Database>,
  { id, notBefore, accountId }: TaskRef & { accountId: string },
): Promise<StoredArtifact[] | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select('artifacts')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row ? parseArtifacts(row.artifacts) : undefined;
}

/** Earliest time a QUEUED task of the type becomes due, for the scheduler's timer. */
export async function nextAvailableAt(db: Kysely<Database>, taskType: string): Promise<number | null> {
  const r = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.min('available_at').as('t'))
    .where('task_type', '=', taskType)
    .where('status', '=', QUEUED)
    .executeTakeFirst();
  return r?.t === null || r?.t === undefined ? null : Number(r.t);
}

/** Embedded store: the reads by id, prepared once. */
export function prepareRead(db: BetterSqlite3.Database) {
  const pollColumns = POLL_COLUMNS.join(', ');
  return {
    // By rowid first: one B-tree instead of the id index and then the table (docs/benchmarks.md).
    // The id is checked too, as a row can have another rowid (a repeated key, a rowid renumbered by VACUUM).
    getTaskByKey: db.prepare('select * from tasks where rowid = ? and id = ? and created_at >= ?'),
    getTask: db.prepare('select * from tasks where id = ? and created_at >= ?'),
    // Rows as arrays: building a 22-key object per row was a third of the poll's read (docs/benchmarks.md).
    pollTaskByKey: db
      .prepare(`select ${pollColumns} from tasks where rowid = ? and id = ? and created_at >= ?`)
      .raw(true),
    pollTask: db.prepare(`select ${pollColumns} from tasks where id = ? and created_at >= ?`).raw(true),
  };
}

type ReadStatements = ReturnType<typeof prepareRead>;

/** Embedded store: `getTask` on prepared statements, answered with the other reads of this turn. */
export function getTaskSqlite(
  group: GroupCommit,
  s: ReadStatements,
  { id, notBefore }: TaskRef,
): Promise<TaskRecord | undefined> {
  return group.read(() => {
    const row = byKeyThenId<TasksTable>(s.getTaskByKey, s.getTask, id, notBefore);
    return row ? taskFromRow(row) : undefined;
  });
}

/** Embedded store: `pollTask` on prepared statements, read as an array, answered with the other reads of this turn. */
export function pollTaskSqlite(
  group: GroupCommit,
  s: ReadStatements,
  { id, notBefore }: TaskRef,
): Promise<PolledTask | undefined> {
  return group.read(() => {
    const values = byKeyThenId<PollValues>(s.pollTaskByKey, s.pollTask, id, notBefore);
    return values ? polledFromValues(values) : undefined;
  });
}

/**
 * A task's row by its rowid (where the id's key is the rowid, as for every task inserted since keys became rowids),
 * else by the id index.
 */
function byKeyThenId<Row>(
  byKey: BetterSqlite3.Statement,
  byId: BetterSqlite3.Statement,
  id: string,
  notBefore: number,
): Row | undefined {
  const key = taskIdKey(id);
  const row = key === null ? undefined : (byKey.get(key, id, notBefore) as Row | undefined);
  return row ?? (byId.get(id, notBefore) as Row | undefined);
}
