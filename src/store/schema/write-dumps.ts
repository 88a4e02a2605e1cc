import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgresStore } from '../postgres/postgres-store.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import { DUMP_FILES, dumpPostgresSchema, dumpSqliteSchema } from './dump.js';

/**
 * `npm run schema:dump`: migrates a fresh SQLite database (in memory) and a fresh PostgreSQL schema (in the database
 * of AEQ_SCHEMA_DATABASE_URL, by default the local server's `postgres`; the schema is dropped after), and writes
 * their dumps beside this file.
 */
const PG_URL = process.env.AEQ_SCHEMA_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const here = path.dirname(fileURLToPath(import.meta.url));

const sqlite = openSqliteStore(':memory:', 60_000);
await sqlite.migrate();
fs.writeFileSync(path.join(here, DUMP_FILES.sqlite), await dumpSqliteSchema(sqlite.db));
await sqlite.close();

const schema = `aeq_schema_dump_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`create schema ${schema}`);
try {
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const postgres = openPostgresStore(url.toString(), 60_000, 2);
  await postgres.migrate();
  fs.writeFileSync(path.join(here, DUMP_FILES.postgres), await dumpPostgresSchema(postgres.db));
  await postgres.close();
} finally {
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
console.log(`schema dumps written to ${path.relative(process.cwd(), here)}`);
