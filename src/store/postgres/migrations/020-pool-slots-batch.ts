import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: many pool leases in one call (store/pool-leases.ts, postgresAcquirer). Every attempt leases an exit
 * address, so one call per lease was a round trip per task, and with hundreds of attempts starting at once they
 * queued for the connection pool (docs/benchmarks.md, "PostgreSQL profile"). Each lease takes a slot as
 * aeq_acquire_pool_slot does (migrations/007-pool-slots.ts), in order; the answer is each lease's slot, or -1.
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
      v_out integer[] := '{}';
      v_slot integer;
      v_have integer;
    begin
      perform set_config('synchronous_commit', 'off', true);
      for i in 1 .. coalesce(array_length(p_tokens, 1), 0) loop
        loop
          select slot into v_slot from pool_slots
            where resource_id = p_resources[i] and slot < p_capacities[i] and (token is null or expires_at <= p_now)
            order by slot limit 1
            for update skip locked;
          if found then
            update pool_slots set token = p_tokens[i], expires_at = p_expires[i], holder = p_holders[i]
              where resource_id = p_resources[i] and slot = v_slot;
            exit;
          end if;
          -- Every existing slot is taken (or being taken): add the next chunk, up to the capacity.
          select coalesce(max(slot) + 1, 0) into v_have from pool_slots where resource_id = p_resources[i];
          if v_have >= p_capacities[i] then
            v_slot := -1;
            exit;
          end if;
          insert into pool_slots (resource_id, slot)
            select p_resources[i], g
            from generate_series(v_have, least(p_capacities[i], v_have + greatest(v_have, 16)) - 1) as g
            on conflict do nothing;
        end loop;
        v_out := v_out || v_slot;
      end loop;
      return v_out;
    end $$`.execute(db);
}
