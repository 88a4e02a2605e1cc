import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { PreparedQuery } from './postgres/prepared.js';
import { TurnBatch } from './postgres/turn-batch.js';
import type { PoolSlots } from './ports.js';
import type { Database } from './schema.js';

/**
 * Pool slots (PostgreSQL): who holds an exit address or an account, recorded in the database so that several worker
 * processes never hold a resource beyond its capacity. A resource of capacity N has slot rows 0..N-1; a lease takes a
 * free or expired slot, so the resources of a worker that died come back when their leases run out, or at once when
 * its death is seen (releaseSlotsOf). The embedded store has one process, whose pools count in memory.
 */

interface LeaseAsk {
  id: string;
  holder: string | null;
  resourceId: string;
  capacity: number;
  now: number;
  expiresAt: number;
}

/**
 * PostgreSQL lease tokens name their slot (`slot/id/resource`), so a release finds the row by its primary key
 * (postgres/migrations/022-pool-slots-batch.ts). Callers hold tokens as opaque strings.
 */
export function slotToken(slot: number, resourceId: string, id: string): string {
  return `${slot}/${id}/${resourceId}`;
}

export function slotOf(token: string): { slot: number; resourceId: string; id: string } | null {
  const m = /^(\d+)\/([^/]+)\/(.*)$/s.exec(token);
  return m ? { slot: Number(m[1]), id: m[2] ?? '', resourceId: m[3] ?? '' } : null;
}

/**
 * PostgreSQL: a lease takes a free or expired slot row of the resource with FOR UPDATE SKIP LOCKED, in a stored
 * function. The leases asked for during one turn of the event loop go to the server as one call
 * (migrations/022-pool-slots-batch.ts): one round trip for the attempts that start together.
 */
export function postgresAcquirer(q: PreparedQuery): PoolSlots['acquire'] {
  const acquireAll = async (asks: LeaseAsk[]): Promise<Array<string | null>> => {
    const col = <T>(pick: (a: LeaseAsk) => T) => asks.map(pick);
    // One `now` for the call: the latest asked (a slot expired by then is free for every ask of the turn).
    const now = Math.max(...col((a) => a.now));
    const r = await q<{ slots: number[] }>(
      'aeq_acquire_pool_slots',
      'select aeq_acquire_pool_slots($1::text[], $2::text[], $3::integer[], $4, $5::bigint[], $6::text[]) as slots',
      [
        col((a) => a.id),
        col((a) => a.resourceId),
        col((a) => a.capacity),
        now,
        col((a) => a.expiresAt),
        col((a) => a.holder),
      ],
    );
    const slots = r.rows[0]?.slots ?? [];
    return asks.map((a, i) => {
      const slot = slots[i] ?? -1;
      return slot >= 0 ? slotToken(slot, a.resourceId, a.id) : null;
    });
  };
  const batch = new TurnBatch<LeaseAsk, string | null>(acquireAll, async (a) => (await acquireAll([a]))[0] ?? null);
  return (a) => batch.add({ id: randomUUID(), ...a, holder: a.holder ?? null });
}

/**
 * PostgreSQL: the releases asked for during one turn of the event loop free their slots in one statement, each by
 * its slot's key and only while it still holds the lease (a slot taken over after expiry is left alone).
 */
export function postgresReleaser(q: PreparedQuery): PoolSlots['release'] {
  const releaseAll = async (tokens: string[]): Promise<undefined[]> => {
    const held = tokens.flatMap((t) => slotOf(t) ?? []);
    if (held.length > 0)
      await q(
        'aeq_release_pool_slots',
        `update pool_slots as p set token = null, expires_at = null, holder = null
        from unnest($1::text[], $2::integer[], $3::text[]) as v (resource_id, slot, token)
        where p.resource_id = v.resource_id and p.slot = v.slot and p.token = v.token`,
        [held.map((h) => h.resourceId), held.map((h) => h.slot), held.map((h) => h.id)],
      );
    return tokens.map(() => undefined);
  };
  const batch = new TurnBatch<string, void>(releaseAll, (token) => releaseAll([token]).then(() => undefined));
  return (token) => batch.add(token);
}

/** PostgreSQL: frees the pool slots the workers `ids` held (their death is seen: store/workers/liveness.ts). */
export async function releaseSlotsOf(trx: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update pool_slots set token = null, expires_at = null, holder = null
    where holder = any(${[...ids]}::text[])`.execute(trx);
}
