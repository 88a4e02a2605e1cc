import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { Database } from '../../src/store/schema.js';

/** A migration that creates table `name` and counts its runs in `runs`. */
function creates(name: string, runs: Map<string, number>): Migration {
  return {
    up: async (db) => {
      runs.set(name, (runs.get(name) ?? 0) + 1);
      await sql`create table ${sql.raw(name)} (x integer)`.execute(db);
    },
  };
}

/**
 * store/migrate.ts reads the recorded migrations first and leaves the migrator out when they are exactly the list:
 * that read must never skip a migration not run yet, nor let a database with a migration the list lacks open.
 */
describe('migrating a database that is up to date', () => {
  it('runs what is missing, nothing twice, and refuses a database with a migration unknown to it', async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
    try {
      const runs = new Map<string, number>();
      const a = creates('a', runs);
      const b = creates('b', runs);
      await migrateToLatest(db, { '001-a': a });
      await migrateToLatest(db, { '001-a': a });
      // A migration added to the list runs on the next start.
      await migrateToLatest(db, { '001-a': a, '002-b': b });
      await migrateToLatest(db, { '001-a': a, '002-b': b });
      expect(Object.fromEntries(runs)).toEqual({ a: 1, b: 1 });
      const tables = await sql<{ name: string }>`select name from sqlite_master where name in ('a', 'b')`.execute(db);
      expect(tables.rows.map((r) => r.name).sort()).toEqual(['a', 'b']);
      // An older release on this database: the migrator's refusal, not a silent start.
      await expect(migrateToLatest(db, { '001-a': a })).rejects.toThrow(/002-b/);
    } finally {
      await db.destroy();
    }
  });
});
