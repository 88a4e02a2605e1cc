import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: many pool leases in one call (store/pool-slots.ts, postgresAcquirer). Every attempt leases an exit
 * address, so one call per lease was a round trip per task, and with hundreds of attempts starting at once they
 * queued for the connection pool (docs/benchmarks.md, "PostgreSQL dispatch"). Each lease takes a free or expired slot
 * as aeq_acquire_pool_slot does (migrations/008-pool-slots.ts); the answer is each lease's slot, or -1.
 *
 * A lease is then released by its slot's key (the token names it), not through an index on the token: with no
 * indexed column changing, taking and freeing a slot are HOT updates, and the table's pages (fillfactor 50) are
 * pruned as they are read. Through the token index, the dead versions of a slot that changes hands thousands of times
 * a minute piled up and a release of 25 leases took 12 ms.
 *
 * A slot also records the worker process holding it (`holder`, store/workers/liveness.ts): a dead worker's slots are
 * freed with its tasks, not when their leases (an engine's timeout and 30 s) run out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index pool_slots_token`.execute(db);
  await sql`alter table pool_slots set (fillfactor = 50)`.execute(db);
  await sql`alter table pool_slots add column holder text`.execute(db);
  await sql`
    create function aeq_acquire_pool_slots(p_tokens text[], p_resources text[], p_capacities integer[],
      p_now bigint, p_expires bigint[], p_holders text[])
    returns integer[] language plpgsql volatile as $$
    declare
      v_out integer[] := array_fill(-1, array[coalesce(array_length(p_tokens, 1), 0)]);
      r record;
      v_slot integer;
      v_have integer;
      v_done integer;
      v_want integer;
      j integer;
    begin
      perform set_config('synchronous_commit', 'off', true);
      -- Per resource, its free slots are found by one scan for all of its asks (a scan per ask passed over the
      -- same taken slots again and again), lowest first, and given to the asks in their order.
      for r in
        select a.res, a.cap, array_agg(a.i::integer order by a.i) as idx
        from unnest(p_resources, p_capacities) with ordinality as a (res, cap, i)
        group by a.res, a.cap
        -- One order for every call, so that two calls making slot rows of two resources cannot wait on each other.
        order by a.res, a.cap
      loop
        v_done := 0;
        v_want := array_length(r.idx, 1);
        loop
          for v_slot in
            select slot from pool_slots
            where resource_id = r.res and slot < r.cap and (token is null or expires_at <= p_now)
            order by slot limit v_want - v_done
            for update skip locked
          loop
            v_done := v_done + 1;
            j := r.idx[v_done];
            update pool_slots set token = p_tokens[j], expires_at = p_expires[j], holder = p_holders[j]
              where resource_id = r.res and slot = v_slot;
            v_out[j] := v_slot;
          end loop;
          exit when v_done >= v_want;
          -- Every existing slot is taken (or being taken): add the next chunk, up to the capacity.
          select coalesce(max(slot) + 1, 0) into v_have from pool_slots where resource_id = r.res;
          exit when v_have >= r.cap;
          insert into pool_slots (resource_id, slot)
            select r.res, g
            from generate_series(v_have, least(r.cap, v_have + greatest(v_have, 16, v_want - v_done)) - 1) as g
            on conflict do nothing;
        end loop;
      end loop;
      return v_out;
    end $$`.execute(db);
}
