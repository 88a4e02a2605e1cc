import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';
import { KyselyStore } from '../kysely-store.js';

/**
 * The embedded store: one SQLite file in WAL mode. SQLite serialises writers, so a claim inside a
 * transaction is already exclusive; nothing more is needed to keep per-engine concurrency.
 */
export function openSqliteStore(file: string, agingMs: number): KyselyStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  return new KyselyStore(
    db,
    {
      kind: 'sqlite',
      lockCandidates: false,
      claimTransaction: (kdb, _taskType, fn) => kdb.transaction().execute(fn),
      destroy: () => db.destroy(),
    },
    agingMs,
  );
}
