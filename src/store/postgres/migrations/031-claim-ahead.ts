import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the claim counts the attempts that ended in the claiming worker as free room, though their tasks
 * are PROCESSING until their finish commits, and frees the exit-address slots those attempts held. The worker can then
 * claim the next tasks while the last ones' finish is still on its way, instead of one round trip after it: the
 * claim, the attempts and the finish ran in series, and two workers split the same cycle (docs/benchmarks.md,
 * "Claim ahead of the finish"). The ended attempts are named by task id and lease token, so a task claimed again
 * since (a lost lease) still counts. The function's arguments change: it is dropped and made again, in this
 * transaction. The body is src/store/tasks/claim.ts's CLAIM_TASKS_FUNCTION as of this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function aeq_claim_tasks(text, integer, integer, bigint, bigint, text, text, text[], text[], integer[],
    text, bigint)`.execute(db);
  await sql`
    create function aeq_claim_tasks(p_type text, p_limit integer, p_concurrency integer, p_now bigint,
      p_expires bigint, p_worker text, p_token text, p_exit_ids text[], p_exit_countries text[],
      p_exit_caps integer[], p_default_country text, p_slot_expires bigint, p_ended_ids text[], p_ended_tokens text[],
      p_free_res text[], p_free_slots integer[], p_free_tokens text[])
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
      -- The exit-address slots of the worker's attempts that ended, which it handed to this claim to free, each only
      -- while it holds that lease. Skipped when locked (a release of the same slot, or of a dead worker's, is freeing
      -- it): the claim waits on no row lock under the engine's lock.
      if coalesce(array_length(p_free_res, 1), 0) > 0 then
        update pool_slots p set token = null, expires_at = null, holder = null
        from (
          select f.resource_id, f.slot from pool_slots f
            join unnest(p_free_res, p_free_slots, p_free_tokens) as e (res, slot, token)
              on f.resource_id = e.res and f.slot = e.slot and f.token = e.token
          for update of f skip locked) as x
        where p.resource_id = x.resource_id and p.slot = x.slot;
      end if;
      -- An attempt that ended calls its upstream no more: its task, still PROCESSING until its finish commits, leaves
      -- room (matched with its lease token, so a task claimed again since counts).
      select p_concurrency - count(*) into v_room from tasks t
      where t.task_type = p_type and t.status = 'PROCESSING'
        and not exists (
          select 1 from unnest(p_ended_ids, p_ended_tokens) as e (id, token)
          where e.id = t.id and e.token = t.lease_token);
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
