import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the claim (021-claim-function.ts) returns only the columns an attempt reads, not the whole row. The
 * rest (status, result, error, failure, times, batch, worker) is known or unused while the task is held, and each
 * column returned was parsed and copied per task in the worker's event loop, its limit (docs/benchmarks.md,
 * "PostgreSQL dispatch"). The lease token and its expiry are the caller's own arguments, so they are not returned
 * either. A function's result type cannot change in place: it is dropped and made again, in this transaction. The
 * body is src/store/tasks/claim.ts's CLAIM_TASKS_FUNCTION as of this migration; `#variable_conflict use_column` lets
 * the result's column names be the table's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function aeq_claim_tasks(text, integer, integer, bigint, bigint, text, text)`.execute(db);
  await sql`
    create function aeq_claim_tasks(p_type text, p_limit integer, p_concurrency integer, p_now bigint,
      p_expires bigint, p_worker text, p_token text)
    returns table (id text, task_type text, priority integer, payload text, idempotency_key text, webhook_url text,
      country text, created_at bigint, attempts integer, max_attempts integer, credits_to_charge integer,
      account_id text)
    language plpgsql volatile as $$
    #variable_conflict use_column
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
          select q.id from tasks q
          where q.task_type = p_type and q.status = 'QUEUED' and q.available_at <= p_now
          order by q.sort_key limit v_room
          for update skip locked)
        update tasks t set status = 'PROCESSING', lease_token = p_token, lease_expires_at = p_expires,
          worker_id = p_worker, attempts = t.attempts + 1, updated_at = p_now
        from picked where t.id = picked.id and t.status = 'QUEUED'
        returning t.id, t.task_type, t.priority, t.payload, t.idempotency_key, t.webhook_url, t.country, t.created_at,
          t.attempts, t.max_attempts, t.credits_to_charge, t.account_id;
    end $$`.execute(db);
}
