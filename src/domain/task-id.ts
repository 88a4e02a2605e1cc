import { randomUUID } from 'node:crypto';

/** The 12 bits after the version nibble count the ids of one millisecond (RFC 9562, method 1). */
const SEQUENCE_BITS = 12;
const SEQUENCE_SPAN = 2 ** SEQUENCE_BITS;
/** A millisecond's first id starts the count at random below this, leaving the rest for its later ids. */
const SEQUENCE_START_SPAN = 2048;

/** The millisecond the last caller asked for. */
let askedMs = -1;
/** The millisecond written into the last id: the one asked for, or a later one after its count ran out. */
let idMs = -1;
let prefix = '';
let sequence = 0;

function startMillisecond(ms: number, first: number): void {
  const hex = ms.toString(16).padStart(12, '0').slice(-12);
  prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
  idMs = ms;
  sequence = first;
}

/**
 * A task id: a UUID of version 7 (RFC 9562). The first 48 bits are the creation time in
 * milliseconds, the 12 bits after the version nibble a counter of the ids made in that millisecond
 * (starting at random below 2,048, so at least 2,048 ids fit in one), the remaining 62 bits
 * random. When a millisecond's count runs out (only a bulk load makes that many ids at once), the
 * ids go on in the next millisecond, as RFC 9562 (6.2) allows, so that they stay distinct and
 * ordered.
 *
 * Time-ordered ids make every new task's index entry land at the end of the id B-tree instead of
 * on a random page, which halved the store's cost of an insert; the counter makes the first 64 bits
 * unique among the ids of one process, so that the embedded store can use them as the row's key
 * (`taskIdKey`) and find a polled task in one B-tree instead of two (docs/benchmarks.md). A clock
 * that steps back can repeat a key: the store then gives the row a key of its own and still finds
 * it by id.
 *
 * Built on Node's `randomUUID` (version 4, from a cached entropy pool): its version nibble and
 * everything before it give way to the time and the counter. The `uuid` package's v7 took about
 * 4 µs an id here against well under 1 µs for this.
 */
export function newTaskId(nowMs: number): string {
  const ms = Math.max(0, Math.floor(nowMs));
  if (ms === askedMs || (ms > askedMs && ms <= idMs)) {
    // The same millisecond, or the clock has not caught up with one the count ran into: count on.
    if (++sequence === SEQUENCE_SPAN) startMillisecond(idMs + 1, 0);
  } else {
    startMillisecond(ms, Math.floor(Math.random() * SEQUENCE_START_SPAN));
  }
  askedMs = ms;
  return prefix + sequence.toString(16).padStart(3, '0') + randomUUID().slice(18);
}

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/;

/**
 * The first 64 bits of a version-7 id without its version nibble (time, then counter) as an integer
 * (a bigint past 2^53, i.e. after the year 2039); null for any other id. Increases with the id.
 */
export function taskIdKey(id: string): number | bigint | null {
  if (!V7.test(id)) return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  const seq = Number.parseInt(id.slice(15, 18), 16);
  const key = ms * SEQUENCE_SPAN + seq;
  return Number.isSafeInteger(key) ? key : (BigInt(ms) << BigInt(SEQUENCE_BITS)) | BigInt(seq);
}

/**
 * The least id of a task made at or after `ms` by `newTaskId`: ids of earlier milliseconds sort (as text, byte by
 * byte) before it, those of `ms` and later after it. An id's time is never earlier than its task's creation (it can
 * be a little later, when a millisecond's count ran out), so the tasks created at or after `ms` lie at or after this
 * bound in the id index (store/tasks/list.ts).
 */
export function taskIdFloor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-`;
}

/**
 * How much later than its task's creation an id's time can be: a millisecond whose count of ids ran out (2,048 at
 * least) goes on in the next one (`newTaskId`): ids are made at about one a microsecond, so only a burst on a clock
 * that stands still (a test's) moves them, by a millisecond per 4,096 ids, and a long enough burst further than this. A
 * read of the tasks created before a time reads the id range this much further, and checks `created_at` for the exact
 * bound (store/tasks/list.ts, delete.ts; the sweep deletes a task whose id ran further ahead in a later pass).
 */
export const ID_AHEAD_MS = 1000;

/** Task, batch and monitor ids are UUIDs; anything else is not found without asking the store. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A version-7 id's creation millisecond (its first 48 bits); null for any other id. */
export function taskIdTime(id: string): number | null {
  if (!V7.test(id)) return null;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
