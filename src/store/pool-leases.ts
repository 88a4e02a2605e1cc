import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { serialised, type StoreDialect } from './dialect.js';
import { TurnBatch } from './postgres/turn-batch.js';
import type { Database } from './schema.js';

/**
 * Pool leases: a ledger of who holds an exit address or an account, so that a resource is never
 * held more than its capacity across processes. A lease expires on its own, which frees the
 * resources of a worker that died.
 */

/** Records a lease in `pool_leases` when the resource has fewer than `capacity` live ones; null when full. */
export function acquirePoolLease(
  db: Kysely<Database>,
  dialect: StoreDialect,
  resourceId: string,
  capacity: number,
  now: number,
  expiresAt: number,
): Promise<string | null> {
  // Serialised per resource, so the count cannot be raced.
  return serialised(db, dialect, `lease:${resourceId}`, async (trx) => {
    const live = await trx
      .selectFrom('pool_leases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('resource_id', '=', resourceId)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= capacity) return null;
    const token = randomUUID();
    await trx.insertInto('pool_leases').values({ token, resource_id: resourceId, expires_at: expiresAt }).execute();
    // Expired rows of this resource are garbage now.
    await trx.deleteFrom('pool_leases').where('resource_id', '=', resourceId).where('expires_at', '<=', now).execute();
    return token;
  });
}

export async function releasePoolLease(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('pool_leases').where('token', '=', token).execute();
}

interface LeaseAsk {
  token: string;
  resourceId: string;
  capacity: number;
  now: number;
  expiresAt: number;
}

/**
 * PostgreSQL: a lease takes a free or expired slot row of the resource with FOR UPDATE SKIP LOCKED, in a stored
 * function (postgres/migrations/007-pool-slots.ts). The leases asked for during one turn of the event loop go to the
 * server as one call (migrations/020-pool-slots-batch.ts): one round trip for the attempts that start together.
 */
export function postgresAcquirer(
  db: Kysely<Database>,
): (resourceId: string, capacity: number, now: number, expiresAt: number) => Promise<string | null> {
  const acquireAll = async (asks: LeaseAsk[]): Promise<Array<string | null>> => {
    const col = <T>(pick: (a: LeaseAsk) => T) => asks.map(pick);
    // One `now` for the call: the latest asked (a slot expired by then is free for every ask of the turn).
    const now = Math.max(...col((a) => a.now));
    const r = await sql<{ ok: boolean[] }>`select aeq_acquire_pool_slots(${col((a) => a.token)}::text[],
      ${col((a) => a.resourceId)}::text[], ${col((a) => a.capacity)}::integer[], ${now},
      ${col((a) => a.expiresAt)}::bigint[]) as ok`.execute(db);
    const ok = r.rows[0]?.ok ?? [];
    return asks.map((a, i) => (ok[i] ? a.token : null));
  };
  const batch = new TurnBatch<LeaseAsk, string | null>(acquireAll, async (a) => (await acquireAll([a]))[0] ?? null);
  return (resourceId, capacity, now, expiresAt) =>
    batch.add({ token: randomUUID(), resourceId, capacity, now, expiresAt });
}

/** PostgreSQL: the releases asked for during one turn of the event loop free their slots in one statement. */
export function postgresReleaser(db: Kysely<Database>): (token: string) => Promise<void> {
  const releaseAll = async (tokens: string[]): Promise<undefined[]> => {
    await sql`update pool_slots set token = null, expires_at = null where token = any(${tokens}::text[])`.execute(db);
    return tokens.map(() => undefined);
  };
  const batch = new TurnBatch<string, void>(releaseAll, (token) => releaseAll([token]).then(() => undefined));
  return (token) => batch.add(token);
}
