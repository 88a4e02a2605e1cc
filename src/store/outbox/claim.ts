import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import type { DueDelivery, Outbox } from '../ports.js';

type ClaimDue = Parameters<Outbox['claimDue']>[0];

/**
 * The sender's claim of webhook deliveries (outbox/deliveries.ts has the rest of the outbox): those whose sender died
 * mid-attempt (lease expired) first, then the due ones, each account within its share of the sender's slots.
 *
 * The share: a due row's place is its rank among its account's due rows plus what the account already holds; a row
 * is claimed while its place is within `shared` when the scanned due rows belong to several accounts, within `alone`
 * when to one. Accounts already holding `alone` are left out of the scan, so their backlog cannot fill it and hide
 * another account's due rows. The scan reads the earliest `4 × limit` due rows only, so a claim costs the same
 * whatever the outbox holds: on 20,000 due rows (SQLite, a shared 2-core machine) a claim of 64 took about 1.0 to
 * 1.3 ms with the ranking and without it (the earlier statement), the difference within the run-to-run noise.
 */

/** Up to this many due rows per claimed row are ranked (see above). */
const SCAN_FACTOR = 4;
/** No share: every account may take every slot. */
const UNBOUNDED = 2 ** 31 - 1;

interface Lease {
  token: string;
  expires: number;
  now: number;
  /** The worker process claiming (store/workers/liveness.ts): its death releases the delivery at once. */
  holder: string | null;
}

interface ClaimedRow {
  task_id: string;
  account_id: string;
  url: string;
  payload: string;
  attempts: number | string;
  lease_token: string | null;
  redeliveries: number | string;
  attempts_base: number | string;
}

const RETURNED = 'task_id, account_id, url, payload, attempts, lease_token, redeliveries, attempts_base';

function dueOf(r: ClaimedRow): DueDelivery {
  return {
    taskId: r.task_id,
    accountId: r.account_id,
    url: r.url,
    payload: r.payload,
    attempts: Number(r.attempts),
    leaseToken: r.lease_token ?? '',
    redelivery: Number(r.redeliveries),
    attemptsBase: Number(r.attempts_base),
  };
}

/**
 * PostgreSQL: the claim in one transaction, candidate rows locked with SKIP LOCKED so that concurrent senders pass
 * each other's rows by.
 */
export function claimDueDeliveriesPostgres(
  db: Kysely<Database>,
  { now, limit, leaseMs, holder = null, share }: ClaimDue,
): Promise<DueDelivery[]> {
  return db.transaction().execute(async (trx) => {
    const lease: Lease = { token: randomUUID(), expires: now + leaseMs, now, holder };
    const set = sql`
      status = 'SENDING',
      lease_token = ${lease.token},
      lease_expires_at = ${lease.expires},
      updated_at = ${now},
      holder = ${holder}`;
    // Two index ranges rather than one OR: stale leases first, then the due ones.
    const stale = await sql<ClaimedRow>`
      with stale as materialized (
        select task_id
        from webhook_deliveries
        where status = 'SENDING'
          and lease_expires_at < ${now}
        order by lease_expires_at
        limit ${limit}
        for update skip locked
      )
      update webhook_deliveries
      set ${set}
      from stale
      where webhook_deliveries.task_id = stale.task_id
      returning ${sql.raw(RETURNED.replace('task_id', 'webhook_deliveries.task_id'))}`.execute(trx);
    const room = limit - stale.rows.length;
    if (room <= 0) return stale.rows.map(dueOf);
    const shared = share?.shared ?? UNBOUNDED;
    const alone = share?.alone ?? UNBOUNDED;
    // The dummy row keeps the list valid when nothing is held (no account has the empty id).
    const held = sql.join(
      [
        sql`select cast('' as text) as account_id, cast(0 as integer) as n`,
        ...[...(share?.held ?? new Map<string, number>())].map(
          ([a, n]) => sql`select cast(${a} as text), cast(${n} as integer)`,
        ),
      ],
      sql` union all `,
    );
    const due = await sql<ClaimedRow>`
      with held as (${held}),
      scan as materialized (
        select task_id, account_id, next_attempt_at
        from webhook_deliveries
        where status = 'PENDING'
          and next_attempt_at <= ${now}
          and account_id not in (select account_id from held where n >= ${alone})
        order by next_attempt_at
        limit ${room * SCAN_FACTOR}
        for update skip locked
      ),
      ranked as (
        select s.task_id, s.next_attempt_at,
          row_number() over (partition by s.account_id order by s.next_attempt_at) + coalesce(h.n, 0) as place
        from scan s
        left join held h on h.account_id = s.account_id
      ),
      due as (
        select task_id
        from ranked
        where place <= case
            when (select count(distinct account_id) from scan) > 1 then cast(${shared} as integer)
            else cast(${alone} as integer)
          end
        order by next_attempt_at
        limit ${room}
      )
      update webhook_deliveries
      set ${set}
      from due
      where webhook_deliveries.task_id = due.task_id
      returning ${sql.raw(RETURNED.replace('task_id', 'webhook_deliveries.task_id'))}`.execute(trx);
    return [...stale.rows, ...due.rows].map(dueOf);
  });
}

/** Embedded store: the lease a claim gives each row it takes. */
const CLAIMED_SQLITE = `
  set status = 'SENDING',
    lease_token = @token,
    lease_expires_at = @expires,
    updated_at = @now,
    holder = @holder`;

/** Embedded store: the claim's statements, prepared once (the same ranges and share as above). */
export function prepareClaim(db: BetterSqlite3.Database) {
  return {
    stale: db.prepare(
      `update webhook_deliveries
      ${CLAIMED_SQLITE}
      where task_id in (
        select task_id
        from webhook_deliveries
        where status = 'SENDING'
          and lease_expires_at < @now
        order by lease_expires_at
        limit @limit
      )
      returning ${RETURNED}`,
    ),
    due: db.prepare(
      `update webhook_deliveries
      ${CLAIMED_SQLITE}
      where task_id in (
        with held as (
          select key as account_id, value as n
          from json_each(@held)
        ),
        scan as (
          select task_id, account_id, next_attempt_at
          from webhook_deliveries
          where status = 'PENDING'
            and next_attempt_at <= @now
            and account_id not in (select account_id from held where n >= @alone)
          order by next_attempt_at
          limit @scan
        ),
        ranked as (
          select s.task_id, s.next_attempt_at,
            row_number() over (partition by s.account_id order by s.next_attempt_at) + coalesce(h.n, 0) as place
          from scan s
          left join held h on h.account_id = s.account_id
        )
        select task_id
        from ranked
        where place <= case
            when (select count(distinct account_id) from scan) > 1 then @shared
            else @alone
          end
        order by next_attempt_at
        limit @limit
      )
      returning ${RETURNED}`,
    ),
  };
}

export function claimDueDeliveriesSqlite(
  group: GroupCommit,
  s: ReturnType<typeof prepareClaim>,
  { now, limit, leaseMs, holder = null, share }: ClaimDue,
): Promise<DueDelivery[]> {
  return group.write(() => {
    const lease = { token: randomUUID(), expires: now + leaseMs, now, holder };
    const stale = s.stale.all({ ...lease, limit }) as ClaimedRow[];
    const room = limit - stale.length;
    const due =
      room > 0
        ? (s.due.all({
            ...lease,
            limit: room,
            scan: room * SCAN_FACTOR,
            held: JSON.stringify(Object.fromEntries(share?.held ?? [])),
            shared: share?.shared ?? UNBOUNDED,
            alone: share?.alone ?? UNBOUNDED,
          }) as ClaimedRow[])
        : [];
    return [...stale, ...due].map(dueOf);
  });
}
