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
 * PostgreSQL: the claim in one statement, a call of the stored function (postgres/migrations/030-exit-lease-in-claim.ts),
 * which holds the per-engine lock only while it runs, and which also leases each task's exit address from the ones
 * the request offers.
 */
export async function claimTasksPostgres(
  q: PreparedArrayQuery,
  agingMs: number,
  a: ClaimRequest,
): Promise<ClaimedTask[]> {
  const token = randomUUID();
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
 * (PostgreSQL needs the materialized CTE of CLAIM_TASKS_FUNCTION).
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
    const token = randomUUID();
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
