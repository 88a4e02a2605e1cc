import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the claim (store/tasks/claim.ts) as one stored function, so that it is one statement and one round
 * trip instead of five (begin, lock, count, update, commit). The per-engine advisory lock that keeps the concurrency
 * count exact across processes is the same, but it is now held for the function's run (well under a millisecond for
 * a claim of hundreds of rows), not across five round trips. Inside, each statement reads a fresh snapshot (READ
 * COMMITTED), so the count sees every claim committed before the lock was granted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function aeq_claim_tasks(p_type text, p_limit integer, p_concurrency integer, p_now bigint,
      p_expires bigint, p_worker text, p_token text)
    returns setof tasks language plpgsql volatile as $$
    declare
      v_room integer;
    begin
      perform pg_advisory_xact_lock(hashtext('aeq:claim:' || p_type));
      select p_concurrency - count(*) into v_room from tasks where task_type = p_type and status = 'PROCESSING';
      v_room := least(p_limit, v_room);
      if v_room <= 0 then
        return;
      end if;
      -- A materialized CTE, not id IN (subquery): with LIMIT and SKIP LOCKED an IN-subquery may run more than once.
      return query
        with picked as materialized (
          select id from tasks
          where task_type = p_type and status = 'QUEUED' and available_at <= p_now
          order by sort_key limit v_room
          for update skip locked)
        update tasks t set status = 'PROCESSING', lease_token = p_token, lease_expires_at = p_expires,
          worker_id = p_worker, attempts = t.attempts + 1, updated_at = p_now
        from picked where t.id = picked.id and t.status = 'QUEUED'
        returning t.*;
    end $$`.execute(db);
}
