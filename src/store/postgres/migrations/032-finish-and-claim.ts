import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the finish of a turn's tasks and the claim that refills their slots, in one call and one commit
 * (store/tasks/finish.ts). The worker's cycle was claim, attempts, finish, then the next claim a round trip later;
 * the finish now brings the next tasks back, as BullMQ's completion returns the next job. The finish's statement runs
 * first, so the claim's count of the engine's PROCESSING tasks sees the finished ones gone; then aeq_claim_tasks
 * (030-exit-lease-in-claim.ts) claims as ever, under its per-engine lock, which the call holds until it commits.
 *
 * Rows: one per finished task (`finished` = its id, the rest null), then one per claimed task (`finished` null, then
 * aeq_claim_tasks' columns). The finish's statement is store/tasks/finish.ts's FINISH_ALL as of this migration, with
 * its document as `p_rows`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function aeq_finish_and_claim(p_rows json, p_type text, p_limit integer, p_concurrency integer,
      p_now bigint, p_expires bigint, p_worker text, p_token text, p_exit_ids text[], p_exit_countries text[],
      p_exit_caps integer[], p_default_country text, p_slot_expires bigint)
    returns table (finished text, id text, task_type text, priority integer, payload text, idempotency_key text,
      webhook_url text, country text, created_at bigint, attempts integer, max_attempts integer,
      credits_to_charge integer, account_id text, exit_id text, exit_slot integer, exit_token text)
    language plpgsql volatile as $$
    #variable_conflict use_column
    begin
      return query
        with v as (
          select *
          from json_to_recordset(p_rows) as v (id text, token text, status text, result text, error text,
            failure text, artifacts text, to_charge integer, charged integer, now bigint, hook_url text,
            hook_payload text, hook_account text, slot_resource text, slot_no integer, slot_token text)
        ),
        freed as (
          update pool_slots as p
          set token = null, expires_at = null, holder = null
          from v
          where v.slot_resource is not null and p.resource_id = v.slot_resource and p.slot = v.slot_no
            and p.token = v.slot_token
        ),
        done as (
          update tasks as t
          set status = v.status, result = v.result, error = v.error, failure = v.failure, artifacts = v.artifacts,
            credits_to_charge = v.to_charge, credits_charged = v.charged, lease_token = null,
            lease_expires_at = null, finished_at = v.now, updated_at = v.now
          from v
          where t.id = v.id and t.status = 'PROCESSING' and t.lease_token = v.token
          returning t.id
        ),
        hooks as (
          insert into webhook_deliveries (task_id, url, payload, status, attempts, next_attempt_at, lease_token,
            lease_expires_at, last_error, created_at, updated_at, account_id)
          select v.id, v.hook_url, v.hook_payload, 'PENDING', 0, v.now, null, null, null, v.now, v.now, v.hook_account
          from v
          join done on done.id = v.id
          where v.hook_url is not null
        )
        select done.id, null::text, null::text, null::integer, null::text, null::text, null::text, null::text,
          null::bigint, null::integer, null::integer, null::integer, null::text, null::text, null::integer,
          null::text
        from done;
      return query
        select null::text, c.*
        from aeq_claim_tasks(p_type, p_limit, p_concurrency, p_now, p_expires, p_worker, p_token, p_exit_ids,
          p_exit_countries, p_exit_caps, p_default_country, p_slot_expires) as c;
    end $$`.execute(db);
}
