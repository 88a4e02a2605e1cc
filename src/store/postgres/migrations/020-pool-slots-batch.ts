import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: many pool leases in one call (store/pool-leases.ts, postgresAcquirer). Every attempt leases an exit
 * address, so one call per lease was a round trip per task, and with hundreds of attempts starting at once they
 * queued for the connection pool (docs/benchmarks.md, "PostgreSQL profile"). Each lease is taken as by
 * aeq_acquire_pool_slot (migrations/007-pool-slots.ts), in order; the answer says which were granted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function aeq_acquire_pool_slots(p_tokens text[], p_resources text[], p_capacities integer[],
      p_now bigint, p_expires bigint[])
    returns boolean[] language plpgsql volatile as $$
    declare
      v_out boolean[] := '{}';
    begin
      for i in 1 .. coalesce(array_length(p_tokens, 1), 0) loop
        v_out := v_out || aeq_acquire_pool_slot(p_tokens[i], p_resources[i], p_capacities[i], p_now, p_expires[i]);
      end loop;
      return v_out;
    end $$`.execute(db);
}
