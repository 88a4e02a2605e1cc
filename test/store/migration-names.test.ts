import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { RENAMED_MIGRATIONS } from '../../src/store/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migration-list.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migration-list.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/service.js';
import { freshPostgresUrl, postgresUnavailableReason } from '../helpers/stores.js';

const pgSkip = await postgresUnavailableReason();

/** The migrations added after the renaming: a database migrated under the old names has not run them. */
const ADDED = new Set([
  '026-drop-pool-leases',
  '027-drop-single-slot-function',
  '028-task-artifacts',
  '029-lean-claim',
  '030-exit-lease-in-claim',
  '031-lean-task-indexes',
  '032-status-count-deltas',
]);

/** A database's list as it was named before each change had one number: the same migrations under the old names. */
function oldList(list: Readonly<Record<string, Migration>>): Record<string, Migration> {
  const oldName = Object.fromEntries(Object.entries(RENAMED_MIGRATIONS).map(([from, to]) => [to, from]));
  return Object.fromEntries(
    Object.entries(list)
      .filter(([name]) => !ADDED.has(name))
      .map(([name, m]) => [oldName[name] ?? name, m]),
  );
}

async function migrateOld(db: Kysely<unknown>, list: Record<string, Migration>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

async function recorded(store: Store): Promise<string[]> {
  const r = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
  return r.rows.map((x) => x.name);
}

/** The store works on the renamed database: a task goes in and is claimed. */
async function usable(store: Store): Promise<void> {
  const id = '01890000-0000-7000-8000-000000000001';
  const now = 1_800_000_000_000;
  const [inserted] = await store.tasks.insert({
    tasks: [
      {
        id,
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'p' },
        priority: 1,
        idempotencyKey: null,
        accountId: 'default',
        webhookUrl: null,
        country: null,
        maxAttempts: 3,
        creditsToCharge: 1,
        createdAt: now,
      },
    ],
  });
  expect(inserted?.ok).toBe(true);
  const claimed = await store.tasks.claim({
    taskType: 'ANSWER_ENGINE_A',
    limit: 1,
    concurrency: 1,
    workerId: 'w',
    now,
    leaseMs: 1000,
  });
  expect(claimed.map((t) => t.id)).toEqual([id]);
}

describe('a database migrated under the old migration names opens with the renamed list', () => {
  it('SQLite: records renamed, the migrations added since run, the store works', async () => {
    const file = path.join(tempDir(), 'aeq.sqlite');
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new BetterSqlite3(file) }) });
    await migrateOld(old, oldList(SQLITE_MIGRATIONS));
    expect((await sql<{ name: string }>`select name from kysely_migration`.execute(old)).rows).toContainEqual({
      name: '012-account-counts',
    });
    await old.destroy();

    const store = openSqliteStore(file, 60_000);
    try {
      await store.migrate();
      expect(await recorded(store)).toEqual(Object.keys(SQLITE_MIGRATIONS).sort());
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(store.db);
      expect(tables.rows.map((t) => t.name)).not.toContain('pool_leases');
      await usable(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(pgSkip !== null)(
    'PostgreSQL: records renamed, the migrations added since run, the store works',
    async () => {
      const { url, drop } = await freshPostgresUrl();
      const schema = new URL(url).searchParams.get('options')?.split('=')[1] ?? '';
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const old = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      const store = openPostgresStore(url, 60_000, 2);
      try {
        await migrateOld(old, oldList(POSTGRES_MIGRATIONS), schema);
        await old.destroy();
        await store.migrate();
        expect(await recorded(store)).toEqual(Object.keys(POSTGRES_MIGRATIONS).sort());
        const left = await sql<{ t: string | null; f: string | null }>`
        select to_regclass('pool_leases')::text as t,
          to_regprocedure('aeq_acquire_pool_slot(text, text, integer, bigint, bigint)')::text as f`.execute(store.db);
        expect(left.rows[0]).toEqual({ t: null, f: null });
        await usable(store);
      } finally {
        await store.close();
        await drop();
      }
    },
  );
});
