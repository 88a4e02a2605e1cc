import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Operator changes shared by every process (src/pools/runtime-changes.ts): the latest state per key. */
export async function putRuntimeChange(
  db: Kysely<Database>,
  { key, state, now }: { key: string; state: string; now: number },
): Promise<void> {
  await db
    .insertInto('runtime_changes')
    .values({ key, state, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ state, updated_at: now }))
    .execute();
}

export async function runtimeChanges(
  db: Kysely<Database>,
): Promise<Array<{ key: string; state: string; updatedAt: number }>> {
  const rows = await db.selectFrom('runtime_changes').selectAll().orderBy('updated_at').orderBy('key').execute();
  return rows.map((r) => ({ key: r.key, state: r.state, updatedAt: Number(r.updated_at) }));
}

/** Key-value settings of the store itself (aeq_meta); set if absent, so the first writer wins. */
export async function getMeta(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const r = await db.selectFrom('aeq_meta').select('value').where('key', '=', key).executeTakeFirst();
  return r?.value;
}

export async function setMetaIfAbsent(
  db: Kysely<Database>,
  { key, value }: { key: string; value: string },
): Promise<string> {
  await db
    .insertInto('aeq_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getMeta(db, key)) ?? value;
}
