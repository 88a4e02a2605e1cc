import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: pool leases as slots. A resource of capacity N has slot rows 0..N-1 (made as
 * needed, in growing chunks); a lease takes a free or expired slot with FOR UPDATE SKIP LOCKED and
 * writes its token there. Concurrent acquirers of one resource lock different rows instead of
 * queueing behind one advisory lock for a count (that way measured 978 acquire + release pairs a
 * second on one resource, against 5,499 trivial queries: docs/benchmarks.md). Capacity holds because a lease is a
 * row: two sessions cannot both hold a slot, and slots at or above a lowered capacity are never
 * taken again (leases held there run out). Unlogged and without a WAL flush, as before: after a
 * crash of PostgreSQL the slots are empty, and the leases of that moment are forgotten early.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists aeq_acquire_pool_lease(text, text, integer, bigint, bigint)`.execute(db);
  await sql`
    create unlogged table pool_slots (
      resource_id text not null,
      slot integer not null,
      token text,
      expires_at bigint,
      primary key (resource_id, slot)
    )`.execute(db);
  await sql`create index pool_slots_token on pool_slots (token) where token is not null`.execute(db);
  await sql`
    create function aeq_acquire_pool_slot(p_token text,
      p_resource text, p_capacity integer, p_now bigint, p_expires bigint)
    returns boolean language plpgsql volatile as $$
    declare
      v_slot integer;
      v_have integer;
    begin
      perform set_config('synchronous_commit', 'off', true);
      loop
        select slot into v_slot from pool_slots
          where resource_id = p_resource and slot < p_capacity and (token is null or expires_at <= p_now)
          order by slot limit 1
          for update skip locked;
        if found then
          update pool_slots set token = p_token, expires_at = p_expires
            where resource_id = p_resource and slot = v_slot;
          return true;
        end if;
        -- Every existing slot is taken (or being taken): add the next chunk, up to the capacity.
        select coalesce(max(slot) + 1, 0) into v_have from pool_slots where resource_id = p_resource;
        if v_have >= p_capacity then
          return false;
        end if;
        insert into pool_slots (resource_id, slot)
          select p_resource, g from generate_series(v_have, least(p_capacity, v_have + greatest(v_have, 16)) - 1) as g
          on conflict do nothing;
      end loop;
    end $$`.execute(db);
}
