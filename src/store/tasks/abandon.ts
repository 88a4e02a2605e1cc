import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { PROCESSING } from './status-literals.js';

/**
 * A claim given up by the worker that asked for it: it failed on the worker's side (the connection dropped while the
 * rows came back, say) after the store may have committed it. The tasks still held under the claim's token go back to
 * QUEUED as they were, the attempt it counted taken back (none ran), and on PostgreSQL the exit addresses it leased are
 * freed (their slot tokens start with the claim's: tasks/claim.ts). Without this they would wait for their lease and
 * their slots' hold to run out while the worker lives on. A claim that never committed matches nothing; one that
 * commits only after this ran is left to those expiries, as before.
 */
export async function abandonClaim(
  db: Kysely<Database>,
  { leaseToken, now, slots }: { leaseToken: string; now: number; slots: boolean },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('tasks')
      .set((eb) => ({
        status: 'QUEUED',
        attempts: eb('attempts', '-', 1),
        lease_token: null,
        lease_expires_at: null,
        worker_id: null,
        updated_at: now,
      }))
      .where('status', '=', PROCESSING)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    if (slots)
      await sql`update pool_slots set token = null, expires_at = null, holder = null
        where starts_with(token, ${`${leaseToken}:`})`.execute(trx);
    return Number(r.numUpdatedRows);
  });
}
