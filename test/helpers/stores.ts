import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import path from 'node:path';
import { tempDir } from './service.js';

/** The PostgreSQL server the tests use (CI starts it); each test gets its own schema in it. */
export const TEST_PG_URL = process.env.AEQ_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let availability: Promise<string | null> | null = null;

/** null when PostgreSQL answers; otherwise the reason the PostgreSQL tests are skipped. */
export function postgresUnavailableReason(): Promise<string | null> {
  availability ??= (async () => {
    const c = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.query('select 1');
      return null;
    } catch (e) {
      return (
        `PostgreSQL at ${TEST_PG_URL} is not reachable (${(e as Error).message}); ` +
        `set AEQ_TEST_DATABASE_URL or start PostgreSQL`
      );
    } finally {
      await c.end().catch(() => undefined);
    }
  })();
  return availability;
}

/** Creates a throwaway schema and returns a DATABASE_URL whose search_path points at it. */
export async function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `aeq_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(TEST_PG_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

export type StoreKind = 'sqlite' | 'postgres';

/** Opens a migrated, empty store of the given kind; `close` also drops what it created. */
export async function openTestStore(
  kind: StoreKind,
  agingMs = 60_000,
): Promise<{ store: Store; close: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const store = openSqliteStore(path.join(tempDir(), 'aeq.sqlite'), agingMs);
    await store.migrate();
    return { store, close: () => store.close() };
  }
  const { url, drop } = await freshPostgresUrl();
  const store = openPostgresStore(url, agingMs, 10);
  await store.migrate();
  return {
    store,
    close: async () => {
      await store.close();
      await drop();
    },
  };
}
