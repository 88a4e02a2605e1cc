import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ID_AHEAD_MS, taskIdFloor } from '../../domain/task-id.js';
import { POLL_COLUMNS, polledFromRow } from '../rows.js';
import type { Database } from '../schema.js';
import type { ListedTaskRow, TaskListQuery } from '../ports.js';

/**
 * Ids a listing reads per step: the page is looked for a window of this many tasks (of every account) at a time, so
 * that an account with few of the tasks in a busy range never makes one long read (on the embedded store a read holds
 * the event loop); between windows other requests run.
 */
export const LIST_WINDOW = 5000;

const WITHOUT_RESULT = POLL_COLUMNS.filter((c) => c !== 'result');

/**
 * `created_at` as an expression no index serves (`+x`, as SQLite documents): a window must be read in the id index.
 * Left to choose, planners took an index on `created_at` (the embedded store has one) for a short time range, and then
 * every window of a long listing would scan the whole range again.
 */
const createdAt = sql<number>`+${sql.ref('created_at')}`;

/**
 * An account's tasks created in [since, until), past `afterId` in the listing's order, oldest first (`asc`, creation
 * order) or newest first (`desc`), at most `limit`, as polls read them. No index on the account or the time: ids are
 * time-ordered (domain/task-id.ts), so the tasks created in a time range lie in one range of the tasks' id index
 * (their primary key), read in windows of LIST_WINDOW ids from either end, and `account_id`, `created_at`,
 * `task_type` and `status` are checked on the rows of that range. An index on tasks was measured to cost insert and
 * dispatch throughput (migrations/011-batches.ts); this read is rare and bounded by the retention window.
 */
export async function listTasks(
  db: Kysely<Database>,
  q: TaskListQuery,
  textMatch: TextMatch,
): Promise<ListedTaskRow[]> {
  if (q.limit <= 0 || (q.until !== null && q.until <= q.since)) return [];
  const desc = q.order === 'desc';
  // The id range of [since, until): from the first id of `since` to before the first id past `until`.
  let low: Bound = { op: '>=', id: taskIdFloor(q.since) };
  let high: Bound | null = q.until === null ? null : { op: '<', id: taskIdFloor(q.until + ID_AHEAD_MS) };
  // A cursor narrows the range from the end the listing starts at.
  if (q.afterId !== null) {
    if (!desc && q.afterId >= low.id) low = { op: '>', id: q.afterId };
    if (desc && (high === null || q.afterId < high.id)) high = { op: '<', id: q.afterId };
  }
  // The stored result only when asked for: it is most of a row's bytes.
  const result = q.withResult ? sql.ref<string | null>('result') : sql<string | null>`null`;
  const payload = q.withPayload ? sql.ref<string | null>('payload') : sql<string | null>`null`;
  const country = q.withPayload ? sql.ref<string | null>('country') : sql<string | null>`null`;
  const contains = q.text === null ? null : textMatch(q.text);
  const out: ListedTaskRow[] = [];
  for (;;) {
    const range = db
      .selectFrom('tasks')
      .where('id', low.op, low.id)
      .$if(high !== null, (b) => b.where('id', high?.op ?? '<', high?.id ?? ''));
    // The window's far id: LIST_WINDOW ids on (the index alone is read), or none when the range ends sooner.
    const edge = await range
      .select('id')
      .orderBy('id', desc ? 'desc' : 'asc')
      .limit(1)
      .offset(LIST_WINDOW - 1)
      .executeTakeFirst();
    const rows = await range
      .select([...WITHOUT_RESULT, result.as('result'), payload.as('payload'), country.as('country')])
      .$if(edge !== undefined, (b) => b.where('id', desc ? '>=' : '<=', edge?.id ?? ''))
      .where('account_id', '=', q.accountId)
      .where(createdAt, '>=', q.since)
      .$if(q.until !== null, (b) => b.where(createdAt, '<', q.until ?? 0))
      .$if(q.status !== null, (b) => b.where('status', '=', q.status ?? ''))
      .$if(q.taskType !== null, (b) => b.where('task_type', '=', q.taskType ?? ''))
      .$if(contains !== null, (b) => b.where(contains ?? sql<boolean>`true`))
      .orderBy('id', desc ? 'desc' : 'asc')
      .limit(q.limit - out.length)
      .execute();
    for (const r of rows)
      out.push(
        r.payload === null
          ? polledFromRow(r)
          : { ...polledFromRow(r), payload: JSON.parse(r.payload), country: r.country },
      );
    if (out.length >= q.limit || edge === undefined) return out;
    if (desc) high = { op: '<', id: edge.id };
    else low = { op: '>', id: edge.id };
  }
}

/** One end of an id range. */
interface Bound {
  op: '>' | '>=' | '<';
  id: string;
}

/** The request members a text search reads: what was asked, never the JSON's member names. */
const SEARCHED_MEMBERS = ['prompt', 'query', 'url', 'community', 'seed'] as const;

/** "The request's searched members contain `text`, ignoring case", in one database's JSON functions. */
export type TextMatch = (text: string) => RawBuilder<boolean>;

/**
 * PostgreSQL's form: `lower()` folds every letter; `strpos` takes the needle as plain text (no pattern characters).
 */
export const postgresTextMatch: TextMatch = (text) => {
  const members = SEARCHED_MEMBERS.map((m) => sql`coalesce(payload::json ->> ${sql.lit(m)}, '')`);
  return sql<boolean>`strpos(lower(${sql.join(members, sql` || chr(10) || `)}), ${text.toLowerCase()}) > 0`;
};

/**
 * The embedded store's form: its `lower()` folds ASCII letters only, so the needle is folded the same way (a needle
 * folded further would never match); `instr` takes it as plain text.
 */
export const sqliteTextMatch: TextMatch = (text) => {
  const members = SEARCHED_MEMBERS.map((m) => sql`coalesce(json_extract(payload, ${sql.lit(`$.${m}`)}), '')`);
  const needle = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return sql<boolean>`instr(lower(${sql.join(members, sql` || char(10) || `)}), ${needle}) > 0`;
};
