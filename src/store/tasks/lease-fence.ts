import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../schema.js';
import { PROCESSING } from './status-literals.js';

/**
 * The lease fence: is this task still mine under this lease token? A claim gives the task a fresh
 * token; every later write to it (heartbeat, finish, retry, the reaper's requeue or failure) goes
 * through only while the task is still PROCESSING under the token the writer holds. A worker whose
 * lease expired and was taken by another claim, or a task already terminal, matches no row, so the
 * write changes nothing and the caller is told it lost the lease. This is the only place the
 * condition is written; its two forms below say the same thing.
 */
export function heldUnderLease(
  eb: ExpressionBuilder<Database, 'tasks'>,
  id: string,
  leaseToken: string | null,
): Expression<SqlBool> {
  return eb.and([
    eb('id', '=', id),
    eb('status', '=', PROCESSING),
    // The reaper fences on the token it read from the row, which may be null.
    leaseToken === null ? eb('lease_token', 'is', null) : eb('lease_token', '=', leaseToken),
  ]);
}

/**
 * The fence as SQL text, for statements written out in full (the embedded store's prepared
 * statements, PostgreSQL's batched finish). `id` and `token` are what the task's columns are
 * compared with: placeholders (`?`, `@id`) or columns of another relation (`v.id`); `table`
 * qualifies the task's columns when the statement joins one.
 */
export function leaseFenceSql(id: string, token: string, table?: string): string {
  const t = table ? `${table}.` : '';
  return `${t}id = ${id} and ${t}status = 'PROCESSING' and ${t}lease_token = ${token}`;
}
