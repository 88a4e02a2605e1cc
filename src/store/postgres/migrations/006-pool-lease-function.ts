import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: a pool lease in one round trip. The per-resource advisory lock, the count of
 * live leases and the insert used to be five statements of one transaction, so every attempt of
 * every worker queued behind that lock for five round trips. In a volatile function each statement
 * still takes a fresh snapshot, so the count sees every lease committed before the lock was granted;
 * the lock is released when the calling statement's transaction ends.
 *
 * Leases are coordination state that expires on its own: the table is unlogged and the lease commit
 * does not wait for a WAL flush, so the lock is not held across an fsync. After a crash of
 * PostgreSQL the table is empty, which only means the leases of that moment are forgotten early.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pool_leases set unlogged`.execute(db);
  await sql`
    create function aeq_acquire_pool_lease(p_token text,
      p_resource text, p_capacity integer, p_now bigint, p_expires bigint)
    returns boolean language plpgsql volatile as $$
    begin
      perform set_config('synchronous_commit', 'off', true);
      perform pg_advisory_xact_lock(hashtext('aeq:claim:lease:' || p_resource));
      delete from pool_leases where resource_id = p_resource and expires_at <= p_now;
      if (select count(*) from pool_leases where resource_id = p_resource) >= p_capacity then
        return false;
      end if;
      insert into pool_leases (token, resource_id, expires_at) values (p_token, p_resource, p_expires);
      return true;
    end $$`.execute(db);
}
