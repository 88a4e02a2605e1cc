import type BetterSqlite3 from 'better-sqlite3';
import type { PreparedQuery } from '../postgres/prepared.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { TaskQueue } from '../ports.js';
import { leaseFenceSql } from './lease-fence.js';

type Heartbeat = Parameters<TaskQueue['heartbeat']>[0];

/** PostgreSQL: $1 the new expiry, $2 and $3 the leases' task ids and tokens. */
const HEARTBEAT_POSTGRES = `
  update tasks as t
  set lease_expires_at = $1
  from unnest($2::text[], $3::text[]) as v (id, token)
  where ${leaseFenceSql('v.id', 'v.token', 't')}`;

/** Embedded store: one lease, run once per lease of the heartbeat in one group commit. */
const HEARTBEAT_SQLITE = `
  update tasks
  set lease_expires_at = ?
  where ${leaseFenceSql('?', '?')}`;

/** PostgreSQL: every lease of the heartbeat in one statement (each still fenced by its own token). */
export async function heartbeatPostgres(q: PreparedQuery, { leases, expiresAt }: Heartbeat): Promise<number> {
  if (leases.length === 0) return 0;
  const r = await q('aeq_heartbeat', HEARTBEAT_POSTGRES, [
    expiresAt,
    leases.map((l) => l.id),
    leases.map((l) => l.leaseToken),
  ]);
  return r.rowCount ?? 0;
}

/** Embedded store: the heartbeat's statement, prepared once. */
export function prepareHeartbeat(db: BetterSqlite3.Database) {
  return db.prepare(HEARTBEAT_SQLITE);
}

export function heartbeatSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareHeartbeat>,
  { leases, expiresAt }: Heartbeat,
): Promise<number> {
  if (leases.length === 0) return Promise.resolve(0);
  return group.write(() => leases.reduce((n, l) => n + s.run(expiresAt, l.id, l.leaseToken).changes, 0));
}
