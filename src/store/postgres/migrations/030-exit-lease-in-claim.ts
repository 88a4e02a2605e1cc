import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the claim also leases each claimed task's exit address (store/tasks/claim.ts), and the finish
 * frees it (store/tasks/finish.ts). Each attempt leased its exit address in a call of its own after the claim
 * (aeq_acquire_pool_slots, one per turn) and freed it in another: two of the four statements of a turn, each built
 * and parsed in the worker's event loop, its limit (docs/benchmarks.md, "PostgreSQL dispatch").
 *
 * The worker offers the exit addresses its pool would pick from now (enabled, not resting, not full in this process),
 * least loaded first; the claim gives each task one of its country (any when the task has none), round robin so that
 * the attempts that start together spread over them, and takes their slots through aeq_acquire_pool_slots, so the
 * slots' rules (capacity across processes, expiry, holder) are the same. A task that gets no slot (none offered for
 * its country, or all full) is still claimed: its attempt leases one the old way. That function turns the
 * transaction's synchronous_commit off for its unlogged rows; the claim's own update is logged and restores it.
 *
 * The body is src/store/tasks/claim.ts's CLAIM_TASKS_FUNCTION as of this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function aeq_claim_tasks(text, integer, integer, bigint, bigint, text, text)`.execute(db);
  await sql`
    create function aeq_claim_tasks(p_type text, p_limit integer, p_concurrency integer, p_now bigint,
      p_expires bigint, p_worker text, p_token text, p_exit_ids text[], p_exit_countries text[],
      p_exit_caps integer[], p_default_country text, p_slot_expires bigint)
    returns table (id text, task_type text, priority integer, payload text, idempotency_key text, webhook_url text,
      country text, created_at bigint, attempts integer, max_attempts integer, credits_to_charge integer,
      account_id text, exit_id text, exit_slot integer, exit_token text)
    language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      v_room integer;
      v_ids text[];
      v_countries text[];
      v_n integer;
      v_offered integer := coalesce(array_length(p_exit_ids, 1), 0);
      v_next integer := 1;
      v_exit text[];
      v_slot integer[];
      v_token text[];
      v_ask integer[] := '{}';
      v_ask_res text[] := '{}';
      v_ask_cap integer[] := '{}';
      v_ask_token text[] := '{}';
      v_got integer[];
      v_sync text;
      i integer;
      j integer;
      c integer;
    begin
      perform pg_advisory_xact_lock(hashtext('aeq:claim:' || p_type));
      select p_concurrency - count(*) into v_room from tasks where task_type = p_type and status = 'PROCESSING';
      v_room := least(p_limit, v_room);
      if v_room <= 0 then
        return;
      end if;
      -- A materialized CTE, not id IN (subquery): with LIMIT and SKIP LOCKED an IN-subquery may run more than once.
      with picked as materialized (
          select q.id from tasks q
          where q.task_type = p_type and q.status = 'QUEUED' and q.available_at <= p_now
          order by q.sort_key limit v_room
          for update skip locked),
        claimed as (
          update tasks t set status = 'PROCESSING', lease_token = p_token, lease_expires_at = p_expires,
            worker_id = p_worker, attempts = t.attempts + 1, updated_at = p_now
          from picked where t.id = picked.id and t.status = 'QUEUED'
          returning t.id, coalesce(t.country, p_default_country) as country)
      select array_agg(claimed.id), array_agg(claimed.country) into v_ids, v_countries from claimed;
      v_n := coalesce(array_length(v_ids, 1), 0);
      if v_n = 0 then
        return;
      end if;
      v_exit := array_fill(null::text, array[v_n]);
      v_slot := array_fill(null::integer, array[v_n]);
      v_token := array_fill(null::text, array[v_n]);
      if v_offered > 0 then
        -- Each task gets the next offered address of its country after the one given last, round robin.
        for i in 1 .. v_n loop
          for c in 0 .. v_offered - 1 loop
            j := (v_next - 1 + c) % v_offered + 1;
            if v_countries[i] is null or p_exit_countries[j] = v_countries[i] then
              v_ask := v_ask || i;
              v_ask_res := v_ask_res || p_exit_ids[j];
              v_ask_cap := v_ask_cap || p_exit_caps[j];
              v_ask_token := v_ask_token || (p_token || ':' || i);
              v_next := j % v_offered + 1;
              exit;
            end if;
          end loop;
        end loop;
        if array_length(v_ask, 1) > 0 then
          v_sync := current_setting('synchronous_commit');
          v_got := aeq_acquire_pool_slots(v_ask_token, v_ask_res, v_ask_cap, p_now,
            array_fill(p_slot_expires, array[array_length(v_ask, 1)]),
            array_fill(p_worker, array[array_length(v_ask, 1)]));
          perform set_config('synchronous_commit', v_sync, true);
          for c in 1 .. array_length(v_ask, 1) loop
            if v_got[c] >= 0 then
              v_exit[v_ask[c]] := v_ask_res[c];
              v_slot[v_ask[c]] := v_got[c];
              v_token[v_ask[c]] := v_ask_token[c];
            end if;
          end loop;
        end if;
      end if;
      return query
        select t.id, t.task_type, t.priority, t.payload, t.idempotency_key, t.webhook_url, t.country, t.created_at,
          t.attempts, t.max_attempts, t.credits_to_charge, t.account_id, l.exit_id, l.exit_slot, l.exit_token
        from unnest(v_ids, v_exit, v_slot, v_token) as l (id, exit_id, exit_slot, exit_token)
        join tasks t on t.id = l.id;
    end $$`.execute(db);
}
