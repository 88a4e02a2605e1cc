import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the claim also leases each claimed task's exit address (store/tasks/claim.ts), and the finish
 * frees it (store/tasks/finish.ts). Each attempt leased its exit address in a call of its own after the claim
 * (aeq_acquire_pool_slots, one per turn) and freed it in another: two of the four statements of a turn, each built
 * and parsed in the worker's event loop, its limit (docs/benchmarks.md, "PostgreSQL dispatch").
 *
 * The worker offers the exit addresses its pool would pick from now (enabled, not resting, not full in this process),
 * least loaded first; the claim gives each task one of its country (any when the task has none), round robin so that
 * the attempts that start together spread over them, and takes their slots by the rules of aeq_acquire_pool_slots
 * (022-pool-slots-batch.ts: capacity across processes, expiry, holder, slot rows made as needed), but one statement
 * per address rather than one per slot: a statement in PL/pgSQL costs its executor's start whatever it does. A task
 * that gets no slot (none offered for its country, or all full) is still claimed: its attempt leases one the old way.
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
      v_got_i integer[] := '{}';
      v_got_res text[] := '{}';
      v_got_slot integer[] := '{}';
      v_part_i integer[];
      v_part_slot integer[];
      v_want integer;
      v_done integer;
      v_have integer;
      r record;
    begin
      perform pg_advisory_xact_lock(hashtext('aeq:claim:' || p_type));
      select p_concurrency - count(*) into v_room from tasks where task_type = p_type and status = 'PROCESSING';
      v_room := least(p_limit, v_room);
      if v_room <= 0 then
        return;
      end if;
      -- The due tasks, locked: nothing else can claim them before the update below.
      select array_agg(q.id), array_agg(coalesce(q.country, p_default_country)) into v_ids, v_countries
      from (
        select t.id, t.country from tasks t
        where t.task_type = p_type and t.status = 'QUEUED' and t.available_at <= p_now
        order by t.sort_key limit v_room
        for update skip locked) as q;
      if v_ids is null then
        return;
      end if;
      if coalesce(array_length(p_exit_ids, 1), 0) > 0 then
        -- Each task asks for an offered address of its country (of any, when it has none), round robin in the order
        -- offered. Per address, its free slots are then taken in one statement, lowest first, in one order of
        -- addresses for every caller; slot rows are made as needed, up to the capacity.
        for r in
          with tasks_in as (
              select u.c, u.i::integer as i from unnest(v_countries) with ordinality as u (c, i)),
            offered as (
              select e.id, e.country, e.cap, e.j
              from unnest(p_exit_ids, p_exit_countries, p_exit_caps) with ordinality as e (id, country, cap, j)),
            asks as (
              select t.i, o.id, o.cap
              from (select i, c, row_number() over (partition by c order by i) - 1 as k from tasks_in
                where c is not null) as t
              join (select id, country, cap, row_number() over (partition by country order by j) - 1 as pos,
                  count(*) over (partition by country) as n from offered) as o
                on o.country = t.c and o.pos = t.k % o.n
              union all
              select t.i, o.id, o.cap
              from (select i, row_number() over (order by i) - 1 as k from tasks_in where c is null) as t
              join (select id, cap, row_number() over (order by j) - 1 as pos, count(*) over () as n
                  from offered) as o
                on o.pos = t.k % o.n)
          select asks.id as res, asks.cap, array_agg(asks.i order by asks.i) as tis
          from asks
          group by asks.id, asks.cap
          order by asks.id, asks.cap
        loop
          v_want := array_length(r.tis, 1);
          v_done := 0;
          loop
            with free as (
                select s.slot, row_number() over (order by s.slot) as rn
                from (
                  select f.slot from pool_slots f
                  where f.resource_id = r.res and f.slot < r.cap and (f.token is null or f.expires_at <= p_now)
                  order by f.slot limit v_want - v_done
                  for update skip locked) as s),
              taken as (
                update pool_slots p set token = p_token || ':' || r.tis[v_done + free.rn],
                  expires_at = p_slot_expires, holder = p_worker
                from free where p.resource_id = r.res and p.slot = free.slot
                returning free.rn, p.slot)
            select array_agg(r.tis[v_done + taken.rn] order by taken.rn), array_agg(taken.slot order by taken.rn)
              into v_part_i, v_part_slot
            from taken;
            if v_part_i is not null then
              v_got_i := v_got_i || v_part_i;
              v_got_slot := v_got_slot || v_part_slot;
              v_got_res := v_got_res || array_fill(r.res, array[array_length(v_part_i, 1)]);
              v_done := v_done + array_length(v_part_i, 1);
            end if;
            exit when v_done >= v_want;
            -- Every existing slot is taken (or being taken): add the next chunk, up to the capacity.
            select coalesce(max(f.slot) + 1, 0) into v_have from pool_slots f where f.resource_id = r.res;
            exit when v_have >= r.cap;
            insert into pool_slots (resource_id, slot)
              select r.res, g
              from generate_series(v_have, least(r.cap, v_have + greatest(v_have, 16, v_want - v_done)) - 1) as g
              on conflict do nothing;
          end loop;
        end loop;
      end if;
      return query
        update tasks t set status = 'PROCESSING', lease_token = p_token, lease_expires_at = p_expires,
          worker_id = p_worker, attempts = t.attempts + 1, updated_at = p_now
        from unnest(v_ids) with ordinality as l (id, i)
          left join unnest(v_got_i, v_got_res, v_got_slot) as g (i, res, slot) on g.i = l.i
        where t.id = l.id
        returning t.id, t.task_type, t.priority, t.payload, t.idempotency_key, t.webhook_url, t.country, t.created_at,
          t.attempts, t.max_attempts, t.credits_to_charge, t.account_id, g.res, g.slot,
          case when g.res is null then null else p_token || ':' || l.i end;
    end $$`.execute(db);
}
