import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClaimedTask } from '../../domain/task.js';
import { CLAIM_COLUMNS, claimedFromValues, type ClaimValues } from '../rows.js';
import type { PreparedArrayQuery } from '../postgres/prepared.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { ClaimRequest } from '../ports.js';
import { slotToken } from '../pool-slots.js';

/** PostgreSQL: the claim, a call of the function whose body is CLAIM_TASKS_FUNCTION (below). */
const CLAIM_POSTGRES =
  'select * from aeq_claim_tasks($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], $10::integer[], $11, $12)';

/** A claimed row on PostgreSQL: CLAIM_COLUMNS' values, then the exit address leased for it (nulls when none). */
type ClaimedPostgresValues = [...ClaimValues, exitId: string | null, exitSlot: number | null, exitToken: string | null];

/**
 * The claim: count the engine's PROCESSING tasks and move at most `concurrency - running` due QUEUED tasks (by
 * sort_key) to PROCESSING under a fresh lease token, counting the attempt, with nothing else claiming for the engine
 * in between. The count lives here, so the concurrency holds across processes. Each store has its own form: SQLite's
 * write transaction is exclusive by itself; PostgreSQL's is a stored function that takes a per-engine lock.
 *
 * PostgreSQL: the claim in one statement, a call of the stored function
 * (postgres/migrations/030-exit-lease-in-claim.ts), which holds the per-engine lock only while it runs, and which
 * also leases each task's exit address from the ones the request offers.
 */
export async function claimTasksPostgres(
  q: PreparedArrayQuery,
  agingMs: number,
  a: ClaimRequest,
): Promise<ClaimedTask[]> {
  const token = a.leaseToken ?? randomUUID();
  const expires = a.now + a.leaseMs;
  const offer = a.exitOffer;
  const exits = offer?.resources ?? [];
  // Rows as arrays, in CLAIM_COLUMNS' order: no object per row for the driver to build.
  const r = await q<ClaimedPostgresValues>('aeq_claim_tasks', CLAIM_POSTGRES, [
    a.taskType,
    a.limit,
    a.concurrency,
    a.now,
    expires,
    a.workerId,
    token,
    exits.map((x) => x.id),
    exits.map((x) => x.country),
    exits.map((x) => x.capacity),
    offer?.defaultCountry ?? null,
    a.now + (offer?.holdMs ?? 0),
  ]);
  const last = CLAIM_COLUMNS.length;
  return inClaimOrder(
    r.rows.map((v) => {
      const task = claimedFromValues(v.slice(0, last) as ClaimValues, token, expires);
      const exitId = v[last] as string | null;
      const exitSlot = v[last + 1] as number | null;
      const exitToken = v[last + 2] as string | null;
      if (exitId !== null && exitSlot !== null && exitToken !== null)
        task.exitLease = { resourceId: exitId, slotToken: slotToken(Number(exitSlot), exitId, exitToken) };
      return task;
    }),
    agingMs,
  );
}

/**
 * The body of aeq_claim_tasks (postgres/migrations/030-exit-lease-in-claim.ts), kept here so that the claim reads where
 * the claim is; the schema-dump test holds it to the function the migrations define. Under the per-engine advisory
 * lock: the room left under the engine's concurrency, then at most that many due QUEUED tasks by sort_key moved to
 * PROCESSING under the lease token, then each one's exit address leased from those the worker offered. Each
 * statement of a volatile function reads a fresh snapshot (READ COMMITTED), so the count sees every claim committed
 * before the lock was granted, which one statement with CTEs would not.
 */
export const CLAIM_TASKS_FUNCTION = `
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
    end `;

/** In claim order (sort_key), computed from numbers: PostgreSQL returns bigint columns as text (rows.ts). */
function inClaimOrder(tasks: ClaimedTask[], agingMs: number): ClaimedTask[] {
  return tasks.sort((x, y) => x.createdAt - x.priority * agingMs - (y.createdAt - y.priority * agingMs));
}

/** Embedded store: the engine's tasks that count against its concurrency. */
const COUNT_PROCESSING_SQLITE = `
  select count(*) as n
  from tasks
  where task_type = ?
    and status = 'PROCESSING'`;

/**
 * Embedded store: the claim of up to @room due tasks. SQLite runs the IN-subquery once, so LIMIT bounds the claim
 * (PostgreSQL's CLAIM_TASKS_FUNCTION locks the ids first and then updates those).
 */
const CLAIM_SQLITE = `
  update tasks
  set status = 'PROCESSING',
    lease_token = @token,
    lease_expires_at = @expires,
    worker_id = @worker,
    attempts = attempts + 1,
    updated_at = @now
  where id in (
      select id
      from tasks
      where task_type = @type
        and status = 'QUEUED'
        and available_at <= @now
      order by sort_key
      limit @room)
    and status = 'QUEUED'
  returning ${CLAIM_COLUMNS.join(', ')}, sort_key`;

/** Embedded store: the claim's statements, prepared once (the claim's rows read as arrays). */
export function prepareClaim(db: BetterSqlite3.Database) {
  return { countProcessing: db.prepare(COUNT_PROCESSING_SQLITE), claim: db.prepare(CLAIM_SQLITE).raw(true) };
}

/**
 * Embedded store: the same claim on prepared statements. A SQLite write transaction is already
 * exclusive. It commits at once when no other write waits (an idle worker should start now).
 */
export function claimTasksSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareClaim>,
  a: ClaimRequest,
): Promise<ClaimedTask[]> {
  return group.writeNowIfIdle(() => {
    const running = (s.countProcessing.get(a.taskType) as { n: number }).n;
    const room = Math.min(a.limit, a.concurrency - running);
    if (room <= 0) return [];
    const token = a.leaseToken ?? randomUUID();
    const expires = a.now + a.leaseMs;
    const rows = s.claim.all({ token, expires, worker: a.workerId, now: a.now, type: a.taskType, room }) as Array<
      [...ClaimValues, number]
    >;
    // The last value is the sort key (SQLite's RETURNING keeps no order).
    const last = CLAIM_COLUMNS.length;
    return rows
      .sort((x, y) => x[last] - y[last])
      .map((v) => claimedFromValues(v.slice(0, last) as ClaimValues, token, expires));
  });
}
